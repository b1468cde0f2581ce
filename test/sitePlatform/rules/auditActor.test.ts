import assert from 'node:assert/strict';
import { harness } from '../../helpers/harness';
import { uuid, type SiteWorld } from '../connections/fixtures';
import { auditRows, builderOps, type Tenant, useTenantWorld } from '../operations/fixtures';

/**
 * Audit rule: a write by the service secret is audited under the X-Agent-Actor-Label it names as
 * workflow:<workflowId>:<runId>. Workflow ids contain colons themselves (commerce-shop:<connectionId>): the run id is
 * the last segment, everything between is the workflow id. Any other shape is ignored (agent:service).
 */
describe('audit rule: workflow actor labels whose workflow id contains colons', () => {
  let world: SiteWorld;
  let t: Tenant;
  useTenantWorld((w, tenant) => {
    world = w;
    t = tenant;
  });

  const writeAs = async (label: string) => {
    const headers = { 'x-agent-secret': harness().deps.config.AGENT_SECRET!, 'x-agent-actor-label': label };
    const body = { action: 'cms_item_update', collection_id: t.collectionId, item_id: t.itemIds[0], fieldData: { name: `By ${uuid()}` } };
    const res = await world.app.call('POST', builderOps(t.projectId), { headers, body });
    assert.equal(res.status, 200, res.text);
    return (await auditRows(t.account.accountId)).at(-1)?.actor;
  };

  it('workflow:commerce-shop:<uuid>:<runId> is audited as sent', async () => {
    const label = `workflow:commerce-shop:${uuid()}:${uuid()}`;
    assert.equal(await writeAs(label), label);
  });

  it('a plain workflow:<workflowId>:<runId> still is', async () => {
    assert.equal(await writeAs('workflow:wf-2:run-7'), 'workflow:wf-2:run-7');
  });

  it('labels without a run id, with empty segments, other characters or an overlong id are ignored', async () => {
    for (const label of [
      'workflow:only',
      'workflow::run',
      'workflow:a::run',
      'workflow:wf:',
      'workflow:wf:run id',
      `workflow:${'x'.repeat(600)}:run`,
      'user:boss',
    ]) {
      assert.equal(await writeAs(label), 'agent:service', label);
    }
  });
});
