// The three load scenarios as autocannon request generators: random product pages,
// topic lists under varied OData filters, and viewpoint creation with a snapshot and
// components. Each returns autocannon's `requests` and what it needs to check after.
import { randomUUID } from 'node:crypto';
import { gradientPng } from './load-png.mjs';
import { LABELS, MEMBERS, PRIORITIES, STATUSES, TYPES, random } from './load-data.mjs';

const rand = random(7);
const pick = (list) => list[Math.floor(rand() * list.length)];

/** GET /1.0/revision/products?per_page=100 on random pages, and now and then the project's products. */
export function productRequests({ modelId, projectId, products }) {
  const pages = Math.max(1, Math.ceil(products / 100));
  return [{
    method: 'GET',
    setupRequest: (req) => ({
      ...req,
      path: rand() < 0.8
        ? `/1.0/revision/products?model_id=${modelId}&per_page=100&page=${1 + Math.floor(rand() * pages)}`
        : `/1.0/project/products?project_id=${projectId}&per_page=100&page=${1 + Math.floor(rand() * pages)}`,
    }),
  }];
}

/** The filters the topic lists use: equality, text search, dates, labels, and/or/not. */
export function topicFilters({ creationMid, runStart, topics }) {
  const member = () => pick(MEMBERS).email;
  return [
    () => `topic_status eq '${pick(STATUSES)}'`,
    () => `topic_type eq '${pick(TYPES)}' and topic_status ne 'Closed'`,
    () => `contains(title, '${pick(['duct', 'wall', 'beam', 'axis C', 'fire'])}')`,
    () => `startswith(title, '${pick(['Duct', 'Wall', 'Pipe', 'Door'])}')`,
    () => `creation_date gt ${creationMid}`,
    () => `modified_date gt ${runStart}`,
    () => `assigned_to eq '${member()}' or priority eq '${pick(PRIORITIES)}'`,
    () => `contains(labels, '${pick(LABELS)}')`,
    () => `labels/any(l: l eq '${pick(LABELS)}') and (topic_status eq 'Open' or topic_status eq 'In Progress')`,
    () => `due_date lt ${creationMid} and not (topic_status eq 'Closed')`,
    () => `due_date eq null or stage eq 'Design'`,
    // The topics a user picked, by number: one shape of query per count picked (and per
    // order), so the server meets many more distinct statements than its own code writes.
    () => {
      const picked = Array.from({ length: 1 + Math.floor(rand() * 100) }, () => `platform_issue_number eq ${1 + Math.floor(rand() * topics)}`).join(' or ');
      return rand() < 0.5 ? picked : `(${picked}) and topic_status ne 'Closed'`;
    },
  ];
}

const ORDERS = ['creation_date desc', 'modified_date asc', 'index', 'platform_issue_number desc', 'creation_date'];

/**
 * GET /bcf/{version}/projects/{id}/topics with a random filter, order, page and selection.
 * Pages as a scrolling list asks for them: as many topics as fit the window ($top 10 to
 * 100) from the first one not shown yet ($skip any number below the board's topics).
 */
export function topicRequests({ boardId, creationMid, runStart, topics }) {
  const filters = topicFilters({ creationMid, runStart, topics });
  return [{
    method: 'GET',
    setupRequest: (req) => {
      const version = pick(['2.1', '3.0']);
      const top = 10 + Math.floor(rand() * 91);
      const skip = rand() < 0.3 ? 0 : Math.floor(rand() * topics);
      const query = new URLSearchParams({ $filter: pick(filters)(), $orderby: pick(ORDERS), $top: String(top), $skip: String(skip) });
      if (rand() < 0.3) query.set('$select', 'title,topic_status,assigned_to,modified_date');
      return { ...req, path: `/bcf/${version}/projects/${boardId}/topics?${query}` };
    },
  }];
}

/**
 * POST .../topics/{guid}/viewpoints on one of `topicGuids`: a perspective camera, a clipping
 * plane, a snapshot PNG and components (selected, coloured and shown GlobalIds of the
 * model, so the model references are looked up). Each answer's guid that came back 2xx
 * is kept in `acknowledged` (topic guid -> set of viewpoint guids) to be checked after.
 */
export function viewpointRequests({ boardId, topicGuids, globalIds }) {
  const snapshots = Array.from({ length: 4 }, (_, i) => gradientPng(96, 64, i).toString('base64'));
  const acknowledged = new Map(topicGuids.map((g) => [g, new Set()]));
  const ids = (n) => Array.from({ length: n }, () => ({ ifc_guid: pick(globalIds), originating_system: 'load', authoring_tool_id: String(Math.floor(rand() * 1e6)) }));
  const body = () => ({
    guid: randomUUID(),
    perspective_camera: {
      camera_view_point: { x: rand() * 50, y: rand() * 50, z: 1.6 + rand() * 20 },
      camera_direction: { x: rand() - 0.5, y: rand() - 0.5, z: -0.3 },
      camera_up_vector: { x: 0, y: 0, z: 1 },
      field_of_view: 60,
      aspect_ratio: 1.5,
    },
    clipping_planes: [{ location: { x: 0, y: 0, z: 3 + rand() * 10 }, direction: { x: 0, y: 0, z: -1 } }],
    snapshot: { snapshot_type: 'png', snapshot_data: pick(snapshots) },
    components: {
      selection: ids(3),
      coloring: [{ color: 'ff0000', components: ids(2) }],
      visibility: { default_visibility: true, exceptions: ids(2), view_setup_hints: { spaces_visible: false, space_boundaries_visible: false, openings_visible: false } },
    },
  });
  const requests = [{
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    setupRequest: (req, context) => {
      context.topic = pick(topicGuids);
      return { ...req, path: `/bcf/${pick(['2.1', '3.0'])}/projects/${boardId}/topics/${context.topic}/viewpoints`, body: JSON.stringify(body()) };
    },
    onResponse: (status, text, context) => {
      if (status >= 200 && status < 300) acknowledged.get(context.topic).add(JSON.parse(text).guid);
    },
  }];
  return { requests, acknowledged };
}
