import 'server-only';
export {
  escrowFor,
  escrowWithKey,
  operatorEscrow,
  dashboardTestMode,
  singleClientId,
  type EscrowClient,
  type ApiFailure,
  type ApiResult,
  type ApiSuccess,
  type FieldError,
} from './client';
