import 'server-only';
export {
  escrowFor,
  operatorEscrow,
  dashboardTestMode,
  singleClientId,
  type EscrowClient,
  type ApiFailure,
  type ApiResult,
  type ApiSuccess,
  type FieldError,
} from './client';
