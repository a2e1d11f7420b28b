import { ClaimHeaders, ClaimStatusDto, UserDto } from '../users.js';
import { defineOperation } from './operation.js';

/** First run (api.md §2.4): public; the first user gets every role. Claiming does not log the caller in. */
const tags = ['Claim'] as const;

export const claimOperations = {
  getClaimStatus: defineOperation({
    operationId: 'getClaimStatus',
    method: 'GET',
    path: '/api/v1/claim',
    tags,
    summary: 'Check if server has been claimed',
    access: 'public',
    responses: { 200: ClaimStatusDto },
  }),
  claimServer: defineOperation({
    operationId: 'claimServer',
    method: 'POST',
    path: '/api/v1/claim',
    tags,
    summary: 'Claim server',
    access: 'public',
    headers: ClaimHeaders,
    responses: { 200: UserDto },
  }),
};
