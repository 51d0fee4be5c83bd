/**
 * A document upload carries a base64 file: its route gets its own body limit (4/3 of the
 * largest file, plus the JSON around it) instead of the API's 64 KiB; every other route of the
 * router keeps the kit's guards. Shared by the applications' and the employees' upload routes.
 */
import { jsonBody } from '../../../platform/http/body';
import type { RouterPolicy } from '../../../platform/http/route';

export function withDocumentUploadBody(policy: RouterPolicy, uploadOperationId: string, maxBytes: number): RouterPolicy {
  const uploadBody = jsonBody(Math.ceil(maxBytes / 3) * 4 + 4096);
  return {
    ...policy,
    // The guards of a GET (no default JSON body parser), then the larger one.
    guards: (route) => (route.operationId === uploadOperationId ? [...policy.guards({ ...route, method: 'get' }), ...uploadBody] : policy.guards(route)),
  };
}
