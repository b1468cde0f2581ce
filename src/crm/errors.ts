import { ApiError } from '../http/errors';

export const contactNotFound = () => new ApiError(404, 'contact_not_found', 'contact not found');
export const taskNotFound = () => new ApiError(404, 'task_not_found', 'task not found');
export const dealNotFound = () => new ApiError(404, 'deal_not_found', 'deal not found');
