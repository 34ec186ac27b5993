/**
 * The errors services throw, each with the HTTP status and the v2 API's code and name
 * (seed 002, "Errors"); api/errors.ts turns them into the one JSON error body
 * `{"error": {"code", "name", "message"}}`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new ApiError(400, 24, 'BAD_REQUEST', message);
export const unauthorized = (message = 'Missing, expired or invalid access token') => new ApiError(401, 401, 'UNAUTHORIZED', message);
export const forbidden = (message = 'Insufficient privilege') => new ApiError(403, 100, 'INSUFFICIENT_PRIVILEGE', message);
export const notFound = (what: string, id: string | number) => new ApiError(404, 20, 'NOT_FOUND', `${what} (${id}) not found`);
export const conflict = (message: string) => new ApiError(409, 409, 'CONFLICT', message);
export const tooLarge = (message: string) => new ApiError(413, 413, 'PAYLOAD_TOO_LARGE', message);

/**
 * A unique key violated (SQLSTATE 23505, PGlite's and PostgreSQL's) is a conflict: services
 * check that a guid or name is free before they insert, but on PostgreSQL two requests at
 * the same moment both pass the check and the second insert fails on the key. Its answer
 * is the check's, a 409, not a 500 (server/test/concurrent-writes.test.ts).
 */
export function duplicateAsConflict(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code === '23505' ? conflict('It exists already: another request created it at the same moment') : error;
}
