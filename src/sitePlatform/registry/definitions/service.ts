import { z } from 'zod';
import { serviceWrite } from '../define';
import { confirm, id, obj } from '../params';

// Switches a project's content source; runs its own queries (binding, snapshots), so it takes no row lock.
export const serviceOperations = [
  serviceWrite(
    'project_cms_provider_set',
    obj({ ...confirm, project_id: id, provider: z.enum(['native', 'site_platform']), site_id: id.optional() }).refine(
      (p) => p.provider === 'native' || Boolean(p.site_id),
      { message: 'site_id is required to switch to the platform CMS', path: ['site_id'] },
    ),
    { confirm: true },
  ),
];
