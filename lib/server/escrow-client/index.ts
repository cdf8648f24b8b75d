import 'server-only';
export { escrow, dashboardClientId, dashboardTestMode, type ApiFailure, type ApiResult, type ApiSuccess, type FieldError } from './client';
