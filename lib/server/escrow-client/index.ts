import 'server-only';
export { escrow, dashboardClientId, type ApiFailure, type ApiResult, type ApiSuccess, type FieldError } from './client';
