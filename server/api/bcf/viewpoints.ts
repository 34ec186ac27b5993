import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Context } from '../context.js';
import { notFound } from '../../services/errors.js';
import {
  componentList, createViewpoint, deleteViewpoint, IMAGE_CONTENT_TYPES, IMAGE_MAX_BYTES, listViewpoints, readViewpointImage, setModels, viewpointJson, viewpointRow,
  type ImageType,
} from '../../services/bcf/viewpoints.js';
import type { BcfVersion } from '../../services/bcf/versions.js';
import { boardOf, callerOf, topicParams } from './caller.js';

const tags = ['bcf viewpoints'];
type TopicRequest = { Params: { project_id: string; topic_guid: string } };
type ViewpointRequest = { Params: { project_id: string; topic_guid: string; viewpoint_guid: string } };

const viewpointParams = { ...topicParams, properties: { ...topicParams.properties, viewpoint_guid: { type: 'string', maxLength: 64 } }, required: [...topicParams.required, 'viewpoint_guid'] } as const;
const bitmapParams = { ...viewpointParams, properties: { ...viewpointParams.properties, bitmap_guid: { type: 'string', maxLength: 64 } }, required: [...viewpointParams.required, 'bitmap_guid'] } as const;

// ---- the POST body's JSON schema (seed 001's request shapes; numbers' finiteness and images checked in the service) ----

const number = { type: 'number' } as const;
const point = { type: 'object', properties: { x: number, y: number, z: number }, required: ['x', 'y', 'z'] } as const;
// 'null' joins the type (not an anyOf branch): Fastify's type coercion would turn a one-item array into its item in a failed branch.
const nullable = <T extends { type: string }>(schema: T) => ({ ...schema, type: [schema.type, 'null'] }) as const;
const camera = (extra: string) =>
  nullable({
    type: 'object',
    properties: { camera_view_point: point, camera_direction: point, camera_up_vector: point, [extra]: number, aspect_ratio: number },
    required: ['camera_view_point', 'camera_direction', 'camera_up_vector', extra],
  });
const text = { type: ['string', 'null'], maxLength: 1000 } as const;
const component = { type: 'object', properties: { ifc_guid: text, originating_system: text, authoring_tool_id: text } } as const;
const componentArray = nullable({ type: 'array', maxItems: 1_000_000, items: component });
/** `RRGGBB` or `AARRGGBB`, optionally after `#` (seed 001). */
const color = { type: 'string', pattern: '^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$' } as const;
const base64 = { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' } as const;
const imageType = { type: 'string', enum: ['png', 'jpg'] } as const;
const line = { type: 'object', properties: { start_point: point, end_point: point }, required: ['start_point', 'end_point'] } as const;
const plane = { type: 'object', properties: { location: point, direction: point }, required: ['location', 'direction'] } as const;
const lines = nullable({ type: 'array', items: line });
const planes = nullable({ type: 'array', items: plane });
const components = nullable({
  type: 'object',
  properties: {
    selection: componentArray,
    coloring: nullable({ type: 'array', items: { type: 'object', properties: { color, components: componentArray }, required: ['color', 'components'] } }),
    visibility: {
      type: 'object',
      properties: {
        default_visibility: { type: 'boolean' },
        exceptions: componentArray,
        view_setup_hints: nullable({ type: 'object', properties: { spaces_visible: { type: 'boolean' }, space_boundaries_visible: { type: 'boolean' }, openings_visible: { type: 'boolean' } } }),
      },
    },
  },
  required: ['visibility'],
});
const viewpointBody = (version: BcfVersion) => ({
  type: 'object',
  properties: {
    guid: { type: ['string', 'null'], maxLength: 64 },
    // A PostgreSQL integer column.
    index: { type: ['integer', 'null'], minimum: -(2 ** 31 - 1), maximum: 2 ** 31 - 1 },
    orthogonal_camera: camera('view_to_world_scale'),
    perspective_camera: camera('field_of_view'),
    // 2.0 clients may send API 1.0's wrapped lists ({line: [...]}, {clipping_plane: [...]}); unwrapped in the handler.
    lines: version === '2.0' ? { anyOf: [lines, { type: 'object', properties: { line: lines } }] } : lines,
    clipping_planes: version === '2.0' ? { anyOf: [planes, { type: 'object', properties: { clipping_plane: planes } }] } : planes,
    bitmaps: nullable({
      type: 'array',
      maxItems: 20,
      items: { type: 'object', properties: { bitmap_type: imageType, bitmap_data: base64, location: point, normal: point, up: point, height: number }, required: ['bitmap_type', 'bitmap_data', 'location', 'normal', 'up', 'height'] },
    }),
    snapshot: nullable({ type: 'object', properties: { snapshot_type: imageType, snapshot_data: base64 }, required: ['snapshot_type', 'snapshot_data'] }),
    components,
  },
});
/** The body holds base64 images: a snapshot and some bitmaps of IMAGE_MAX_BYTES each at most (Fastify's 413 beyond). */
const BODY_LIMIT = 4 * IMAGE_MAX_BYTES;

const modelsBody = { type: 'array', maxItems: 1000, items: { type: 'object', properties: { modelRef: { type: 'string', maxLength: 64 }, revisionRef: { type: ['string', 'null'], maxLength: 16 } }, required: ['modelRef'] } } as const;

function sendImage(reply: FastifyReply, image: { type: ImageType; bytes: Buffer }) {
  return reply.header('Content-Type', IMAGE_CONTENT_TYPES[image.type]).header('X-Content-Type-Options', 'nosniff').send(image.bytes);
}

/** Viewpoints and their parts: snapshot, bitmaps, selection, coloring, visibility, 2.0's components, model references. */
export async function viewpointRoutes(app: FastifyInstance, ctx: Context, version: BcfVersion) {
  const { db, blobs } = ctx;
  const path = '/projects/:project_id/topics/:topic_guid/viewpoints';
  const one = `${path}/:viewpoint_guid`;

  app.get<TopicRequest>(path, { schema: { tags, params: topicParams } }, async (request) => {
    const board = await boardOf(ctx, request);
    return listViewpoints(db, board, await callerOf(ctx, request, version), request.params.topic_guid);
  });

  app.post<TopicRequest & { Body: Record<string, unknown> }>(path, { bodyLimit: BODY_LIMIT, schema: { tags, params: topicParams, body: viewpointBody(version) } }, async (request, reply) => {
    const board = await boardOf(ctx, request);
    const body = { ...request.body };
    for (const [key, inner] of [['lines', 'line'], ['clipping_planes', 'clipping_plane']]) {
      const value = body[key] as Record<string, unknown> | null | undefined;
      if (value && !Array.isArray(value)) body[key] = value[inner] ?? null;
    }
    return reply.status(201).send(await createViewpoint(db, blobs, board, await callerOf(ctx, request, version), request.params.topic_guid, body));
  });

  /** The viewpoint of a sub-resource's request (404 for an unknown board, topic or viewpoint). */
  const rowOf = async (request: { params: ViewpointRequest['Params'] } & Parameters<typeof boardOf>[1]) => {
    const board = await boardOf(ctx, request);
    return { board, row: await viewpointRow(db, board.id, request.params.topic_guid, request.params.viewpoint_guid) };
  };

  app.get<ViewpointRequest>(one, { schema: { tags, params: viewpointParams } }, async (request) => viewpointJson((await rowOf(request)).row, await callerOf(ctx, request, version)));

  app.get<ViewpointRequest>(`${one}/snapshot`, { schema: { tags, params: viewpointParams } }, async (request, reply) => {
    const { board, row } = await rowOf(request);
    const image = await readViewpointImage(blobs, board.id, row);
    if (!image) throw notFound('Snapshot of the viewpoint', row.guid);
    return sendImage(reply, image);
  });

  if (version === '2.0') {
    app.get<ViewpointRequest>(`${one}/components`, { schema: { tags, params: viewpointParams } }, async (request) => componentList((await rowOf(request)).row.data));
  } else {
    app.get<ViewpointRequest & { Params: { bitmap_guid: string } }>(`${one}/bitmaps/:bitmap_guid`, { schema: { tags, params: bitmapParams } }, async (request, reply) => {
      const { board, row } = await rowOf(request);
      const image = await readViewpointImage(blobs, board.id, row, request.params.bitmap_guid.toLowerCase());
      if (!image) throw notFound('Bitmap', request.params.bitmap_guid);
      return sendImage(reply, image);
    });
    app.get<ViewpointRequest>(`${one}/selection`, { schema: { tags, params: viewpointParams } }, async (request) => ({ selection: (await rowOf(request)).row.data.components?.selection ?? [] }));
    app.get<ViewpointRequest>(`${one}/coloring`, { schema: { tags, params: viewpointParams } }, async (request) => ({ coloring: (await rowOf(request)).row.data.components?.coloring ?? [] }));
    // A viewpoint without components hides nothing.
    app.get<ViewpointRequest>(`${one}/visibility`, { schema: { tags, params: viewpointParams } }, async (request) => ({
      visibility: (await rowOf(request)).row.data.components?.visibility ?? { default_visibility: true },
    }));
    app.get<ViewpointRequest>(`${one}/models`, { schema: { tags, params: viewpointParams } }, async (request) => (await rowOf(request)).row.models);
    app.put<ViewpointRequest & { Body: unknown }>(`${one}/models`, { schema: { tags, params: viewpointParams, body: modelsBody } }, async (request) => {
      const board = await boardOf(ctx, request);
      return setModels(db, board, request.params.topic_guid, request.params.viewpoint_guid, request.body);
    });
  }

  if (version === '3.0') {
    app.delete<ViewpointRequest>(one, { schema: { tags, params: viewpointParams } }, async (request, reply) => {
      const board = await boardOf(ctx, request);
      await deleteViewpoint(db, blobs, board, request.params.topic_guid, request.params.viewpoint_guid);
      reply.status(204).send();
    });
  }
}
