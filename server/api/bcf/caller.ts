import type { FastifyRequest } from 'fastify';
import type { Context } from '../context.js';
import { findUser } from '../../services/users.js';
import { unauthorized } from '../../services/errors.js';
import { boardFor, type Board } from '../../services/bcf/boards.js';
import type { Caller } from '../../services/bcf/topics.js';
import type { BcfVersion } from '../../services/bcf/versions.js';

/** The caller of a BCF request: their user id, their e-mail (BCF's user id) and the API version. */
export async function callerOf(ctx: Context, request: FastifyRequest, version: BcfVersion): Promise<Caller> {
  const user = await findUser(ctx.db, request.auth.userId);
  if (!user) throw unauthorized('The access token\'s user no longer exists');
  return { userId: user.id, email: user.email, version };
}

/** The board of the request's `project_id`, as its caller may see it (404 otherwise). */
export const boardOf = (ctx: Context, request: FastifyRequest<{ Params: { project_id: string } }>): Promise<Board> => boardFor(ctx.db, request.auth.userId, request.params.project_id);

/** Path parameters of the resources inside a board. */
export const boardParams = { type: 'object', properties: { project_id: { type: 'string', maxLength: 64 } }, required: ['project_id'] } as const;
export const topicParams = { type: 'object', properties: { project_id: { type: 'string', maxLength: 64 }, topic_guid: { type: 'string', maxLength: 64 } }, required: ['project_id', 'topic_guid'] } as const;
