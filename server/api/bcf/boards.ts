import type { FastifyInstance } from 'fastify';
import type { Context } from '../context.js';
import { createBoard, listBoards, updateBoard, type ArchivedFilter, type Board } from '../../services/bcf/boards.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, boardParams } from './caller.js';

const tags = ['bcf'];
/** What a member may do on a board: documents exist from 3.0 on. */
export const projectActions = (version: BcfVersion) => ['update', 'createTopic', ...(version === '3.0' ? ['createDocument'] : [])];

/** An issue board as seed 001's project_GET, in the version's shape. */
export function boardJson(board: Board, version: BcfVersion, authorization = false) {
  return {
    project_id: board.id,
    name: board.name,
    platform_project_name: board.projectName,
    platform_project_id: board.projectId,
    ...(version === '2.0' ? {} : { platform_issue_board_name: board.name }),
    ...(authorization ? { authorization: { project_actions: projectActions(version) } } : {}),
  };
}

const includeAuthorization = { includeAuthorization: { type: 'boolean', default: false } } as const;

/** Issue boards: list, read, create (2.0), rename (2.1, 3.0). */
export async function boardRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  app.get<{ Querystring: { platform_project_id?: string; platform_archived?: ArchivedFilter; includeAuthorization: boolean } }>(
    '/projects',
    {
      schema: {
        tags,
        querystring: {
          type: 'object',
          properties: { platform_project_id: { type: 'string', maxLength: 64 }, platform_archived: { type: 'string', enum: ['archived', 'not-archived', 'all'] }, ...includeAuthorization },
        },
      },
    },
    async (request) => {
      // platform_archived is a filter of 2.1 and 3.0; 2.0 lists the boards not archived.
      const archived = version === '2.0' ? 'not-archived' : request.query.platform_archived;
      const boards = await listBoards(ctx.db, request.auth.userId, { projectId: request.query.platform_project_id, archived });
      return boards.map((b) => boardJson(b, version, request.query.includeAuthorization));
    },
  );

  app.get<{ Params: { project_id: string }; Querystring: { includeAuthorization: boolean } }>(
    '/projects/:project_id',
    { schema: { tags, params: boardParams, querystring: { type: 'object', properties: includeAuthorization } } },
    async (request) => boardJson(await boardOf(ctx, request), version, request.query.includeAuthorization),
  );

  const name = { type: 'string', minLength: 1, maxLength: 255 } as const;
  if (version === '2.0') {
    app.post<{ Body: { name: string; platform_project_id?: string } }>(
      '/projects',
      { schema: { tags, body: { type: 'object', properties: { name, platform_project_id: { type: 'string', maxLength: 64 } }, required: ['name'] } } },
      async (request, reply) => reply.status(201).send(boardJson(await createBoard(ctx.db, request.auth.userId, request.body.name, request.body.platform_project_id), version)),
    );
  } else {
    app.put<{ Params: { project_id: string }; Body: { name: string; platform_archived?: boolean } }>(
      '/projects/:project_id',
      { schema: { tags, params: boardParams, body: { type: 'object', properties: { name, platform_archived: { type: 'boolean' } }, required: ['name'] } } },
      async (request) => boardJson(await updateBoard(ctx.db, request.auth.userId, request.params.project_id, { name: request.body.name, archived: request.body.platform_archived }), version),
    );
  }
}
