// What the server stored after a load: each topic's viewpoint guids, read back through
// the API as a client would (not from the database: what a client sees is what counts).
import { bcf } from './load-data.mjs';

/** Topic guid -> the set of its viewpoints' guids. */
export async function storedViewpoints(base, token, boardId, topicGuids) {
  const call = bcf(base, token);
  const stored = new Map();
  for (const topic of topicGuids) {
    const list = await call('GET', `/2.1/projects/${boardId}/topics/${topic}/viewpoints`);
    stored.set(topic, new Set(list.map((v) => v.guid)));
  }
  return stored;
}
