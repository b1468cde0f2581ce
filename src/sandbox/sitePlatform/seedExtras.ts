/**
 * Seeding for the families beyond sites, pages and CMS: components, assets, forms and submissions, comments, orders.
 * `submitForm` and `addCommentThread` are visitor and designer actions, so they fire form_submission and
 * comment_created; `addSubmission` only stores a (historical) submission.
 */
import { createHash, randomUUID } from 'node:crypto';
import { emitCommentCreated, emitFormSubmission } from './events';
import { siteData, type SimAsset, type SimComment, type SimComponent, type SimForm, type SimOrder, type SimSubmission } from './siteData';
import { iso, newId, type SimState } from './state';
import { textNode } from './routes/content';

function site(state: SimState, siteId: string) {
  const s = state.sites.get(siteId);
  if (!s) throw new Error(`site platform simulator: no site ${siteId}`);
  return s;
}

export interface ComponentInput {
  id?: string;
  name: string;
  texts?: string[];
  properties?: Record<string, string>;
}

export function addComponent(state: SimState, siteId: string, input: ComponentInput): SimComponent {
  const primary = site(state, siteId).locales.primary.id;
  const id = input.id ?? newId();
  const component: SimComponent = {
    id,
    name: input.name,
    group: 'Sections',
    description: '',
    readonly: false,
    dom: new Map([[primary, (input.texts ?? [`${input.name} text`]).map((t, i) => textNode(`${id}-node-${i + 1}`, t))]]),
    properties: new Map([
      [
        primary,
        Object.entries(input.properties ?? { Heading: input.name }).map(([label, text], i) => ({
          propertyId: `${id}-prop-${i + 1}`,
          type: 'Plain Text' as const,
          label,
          text: { html: text, text },
        })),
      ],
    ]),
  };
  siteData(state, siteId).components.push(component);
  return component;
}

export interface AssetInput {
  fileName: string;
  altText?: string;
  bytes?: Buffer;
}

/** An asset whose bytes already arrived, as if both upload steps had run. */
export function addAsset(state: SimState, siteId: string, input: AssetInput): SimAsset {
  site(state, siteId);
  const now = iso(state.now());
  const bytes = input.bytes ?? Buffer.from(`${input.fileName} bytes`);
  const asset: SimAsset = {
    id: newId(),
    fileName: input.fileName,
    displayName: input.fileName,
    originalFileName: input.fileName,
    contentType: input.fileName.endsWith('.png') ? 'image/png' : 'application/octet-stream',
    size: bytes.length,
    fileHash: createHash('md5').update(bytes).digest('hex'),
    parentFolder: null,
    altText: input.altText ?? null,
    uploaded: true,
    createdOn: now,
    lastUpdated: now,
  };
  siteData(state, siteId).assets.push(asset);
  return asset;
}

export interface FormInput {
  id?: string;
  displayName: string;
  /** Default a new UUID. */
  formElementId?: string;
  pageId?: string;
  fields?: string[];
}

export function addForm(state: SimState, siteId: string, input: FormInput): SimForm {
  site(state, siteId);
  const now = iso(state.now());
  const form: SimForm = {
    id: input.id ?? newId(),
    displayName: input.displayName,
    formElementId: input.formElementId ?? randomUUID(),
    pageId: input.pageId ?? '',
    pageName: '',
    fields: Object.fromEntries(
      (input.fields ?? ['Name', 'Email']).map((f) => [newId(), { displayName: f, type: 'Plain', userVisible: true }]),
    ),
    createdOn: now,
    lastUpdated: now,
  };
  siteData(state, siteId).forms.push(form);
  return form;
}

export function addSubmission(state: SimState, siteId: string, formId: string, response: Record<string, unknown>): SimSubmission {
  const data = siteData(state, siteId);
  const form = data.forms.find((f) => f.id === formId);
  if (!form) throw new Error(`site platform simulator: no form ${formId}`);
  const submission = { id: newId(), formId, displayName: form.displayName, dateSubmitted: iso(state.now()), formResponse: { ...response } };
  data.submissions.push(submission);
  return submission;
}

export interface SubmitOptions {
  /** The submission (and payload) id; default a new id. Setting it to the form's formElementId reproduces the
   * deliveries whose `id` names the form instead of the submission. */
  id?: string;
  /** ISO time of the submission; default the simulator's clock. */
  submittedAt?: string;
  /** The page the form was submitted from; default the form's page. */
  pageId?: string;
}

/** A visitor submits a form: the submission is stored (the forms API lists it) and form_submission fires. */
export function submitForm(
  state: SimState,
  siteId: string,
  formId: string,
  response: Record<string, unknown>,
  options: SubmitOptions = {},
): { submission: SimSubmission; payload: Record<string, unknown> } {
  const s = site(state, siteId);
  const data = siteData(state, siteId);
  const form = data.forms.find((f) => f.id === formId);
  if (!form) throw new Error(`site platform simulator: no form ${formId}`);
  const submission: SimSubmission = {
    id: options.id ?? newId(),
    formId,
    displayName: form.displayName,
    dateSubmitted: options.submittedAt ?? iso(state.now()),
    formResponse: { ...response },
  };
  data.submissions.push(submission);
  const pageId = options.pageId ?? form.pageId;
  const page = pageId ? state.pages.get(pageId) : undefined;
  const payload = emitFormSubmission(state, { site: s, form, submission, page: page?.siteId === siteId ? page : undefined });
  return { submission: structuredClone(submission), payload };
}

export function addCommentThread(state: SimState, siteId: string, input: { pageId: string; content: string }): SimComment {
  const where = site(state, siteId);
  const now = iso(state.now());
  const id = newId();
  const u = state.user;
  const comment = {
    id,
    threadId: id,
    pageId: input.pageId,
    content: input.content,
    isResolved: false,
    author: { userId: u.id, email: u.email, name: `${u.firstName} ${u.lastName}` },
    createdOn: now,
    lastUpdated: now,
  };
  siteData(state, siteId).comments.push(comment);
  emitCommentCreated(state, where, comment);
  return comment;
}

export function addOrder(state: SimState, siteId: string, input: { customer?: string } = {}): SimOrder {
  site(state, siteId);
  const order: SimOrder = {
    orderId: newId().slice(0, 6),
    status: 'unfulfilled',
    comment: '',
    orderComment: '',
    shippingProvider: null,
    shippingTracking: null,
    fulfilledOn: null,
    refundedOn: null,
    acceptedOn: iso(state.now()),
    customerInfo: { fullName: input.customer ?? 'Pat Customer', email: 'pat@example.test' },
    purchasedItems: [],
  };
  siteData(state, siteId).orders.push(order);
  return order;
}
