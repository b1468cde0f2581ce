import { ApiError } from '../http/errors';

export const knowledgeBaseNotFound = () => new ApiError(404, 'knowledge_base_not_found', 'knowledge base not found');
export const artifactNotFound = () => new ApiError(404, 'artifact_not_found', 'artifact not found');
export const knowledgeBaseNameTaken = () =>
  new ApiError(
    409,
    'knowledge_base_name_taken',
    'another knowledge base of this account has this name (names are compared ignoring case)',
    { details: { field: 'name' } },
  );

/** OpenAPI entries of the coded errors the knowledge routes answer. */
export const errorSpecs = {
  kbNotFound: {
    status: 404,
    code: 'knowledge_base_not_found',
    description: "No knowledge base with this id in your account (also for a malformed id or another account's).",
  },
  artifactNotFound: {
    status: 404,
    code: 'artifact_not_found',
    description: 'No artifact with this id whose knowledge base is in your account.',
  },
  nameTaken: {
    status: 409,
    code: 'knowledge_base_name_taken',
    description:
      'Another knowledge base of the account (the research one included) has this name, ignoring case (`field`: `name`). Nothing is written.',
  },
  invalidReference: {
    status: 400,
    code: 'invalid_reference',
    description: '`content_id` does not name a content item of your account (`field`: `content_id`). Nothing is written.',
  },
};
