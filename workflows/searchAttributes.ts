import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Custom search attributes set on every job; the dev server registers them at start. */
export const AccountIdKey = defineSearchAttributeKey('AccountId', SearchAttributeType.KEYWORD);
export const JobKindKey = defineSearchAttributeKey('JobKind', SearchAttributeType.KEYWORD);
export const ContentIdKey = defineSearchAttributeKey('ContentId', SearchAttributeType.KEYWORD);
export const ConnectionIdKey = defineSearchAttributeKey('ConnectionId', SearchAttributeType.KEYWORD);
export const ProjectIdKey = defineSearchAttributeKey('ProjectId', SearchAttributeType.KEYWORD);
/** The job's `tags`: `GET /api/jobs?tag=` and the Temporal UI filter on it. */
export const TagsKey = defineSearchAttributeKey('Tags', SearchAttributeType.KEYWORD_LIST);

export const SEARCH_ATTRIBUTE_KEYS = [AccountIdKey, JobKindKey, ContentIdKey, ConnectionIdKey, ProjectIdKey, TagsKey];

/** Jobs that belong to no account (sweeps) carry this AccountId. */
export const SYSTEM_ACCOUNT = '_system';
