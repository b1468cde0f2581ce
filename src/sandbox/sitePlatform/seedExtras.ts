/** Seeding for the families beyond sites, pages and CMS: components, assets, forms and submissions, comments, orders. */
import { createHash } from 'node:crypto';
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
  pageId?: string;
  fields?: string[];
}

export function addForm(state: SimState, siteId: string, input: FormInput): SimForm {
  site(state, siteId);
  const now = iso(state.now());
  const form: SimForm = {
    id: input.id ?? newId(),
    displayName: input.displayName,
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

export function addCommentThread(state: SimState, siteId: string, input: { pageId: string; content: string }): SimComment {
  site(state, siteId);
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
