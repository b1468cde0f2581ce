import { z } from 'zod';
import { read, write } from '../define';
import { confirm, id, obj, optionalLocale, paging, siteId } from '../params';

const submission = { ...siteId, form_submission_id: id };
const thread = { ...siteId, comment_thread_id: id };
const fr = { scopes: ['forms:read'] } as const;
const fw = { scopes: ['forms:write'] } as const;
const cr = { scopes: ['comments:read'] } as const;
const cw = { scopes: ['comments:write'] } as const;

export const formOperations = [
  read('form_list', 'form', 'GET', '/sites/{site_id}/forms', obj({ ...siteId, ...paging }), fr),
  read('form_get', 'form', 'GET', '/forms/{form_id}', obj({ ...siteId, form_id: id }), fr),
  read('form_submission_list', 'form', 'GET', '/forms/{form_id}/submissions', obj({ ...siteId, ...paging, form_id: id }), fr),
  read(
    'form_submission_list_by_site',
    'form',
    'GET',
    '/sites/{site_id}/form_submissions',
    obj({ ...siteId, ...paging, elementId: z.string().optional() }),
    fr,
  ),
  read('form_submission_get', 'form', 'GET', '/form_submissions/{form_submission_id}', obj(submission), fr),
  write(
    'form_submission_update',
    'form',
    'PATCH',
    '/form_submissions/{form_submission_id}',
    obj({ ...submission, formSubmissionData: z.record(z.string(), z.unknown()) }),
    { ...fw, lock: 'form_submission_id' },
  ),
  write('form_submission_delete', 'form', 'DELETE', '/form_submissions/{form_submission_id}', obj({ ...submission, ...confirm }), {
    ...fw,
    confirm: true,
    lock: 'form_submission_id',
  }),
];

export const commentOperations = [
  read('comment_thread_list', 'comment', 'GET', '/sites/{site_id}/comments', obj({ ...siteId, ...optionalLocale, ...paging }), cr),
  read('comment_thread_get', 'comment', 'GET', '/sites/{site_id}/comments/{comment_thread_id}', obj({ ...thread, ...optionalLocale }), cr),
  write(
    'comment_thread_resolve',
    'comment',
    'PATCH',
    '/sites/{site_id}/comments/{comment_thread_id}',
    obj({ ...thread, resolved: z.boolean() }),
    { ...cw, lock: 'comment_thread_id' },
  ),
  read(
    'comment_reply_list',
    'comment',
    'GET',
    '/sites/{site_id}/comments/{comment_thread_id}/replies',
    obj({ ...thread, ...optionalLocale, ...paging }),
    cr,
  ),
  write(
    'comment_reply_create',
    'comment',
    'POST',
    '/sites/{site_id}/comments/{comment_thread_id}/replies',
    obj({ ...thread, content: z.string().min(1) }),
    cw,
  ),
  read('comment_user_search', 'comment', 'GET', '/sites/{site_id}/comments/users', obj({ ...siteId, email: z.string().email() }), {
    ...cr,
    base: 'beta',
  }),
];
