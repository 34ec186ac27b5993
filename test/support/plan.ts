// Storey plans made by the plan worker (src/core/plan), and reading their lines.
import type { PlanClient } from '../../src/core/plan/plan-client';
import type { PlanLines, PlanModel } from '../../src/core/plan/protocol';

const plans = new Map<string, PlanModel>();

/** The plan (base "0") of the file at `url`, made by `client` once per page. */
export async function planOf(client: PlanClient, url: string): Promise<PlanModel> {
  let plan = plans.get(url);
  if (!plan) {
    const bytes = await (await fetch(url)).arrayBuffer();
    plan = await client.plan(bytes, '0');
    plans.set(url, plan);
  }
  return plan;
}

/** How many polylines. */
export const count = (lines: PlanLines) => lines.owners.length;
/** The points of polyline `i` (x, y pairs). */
export const ring = (lines: PlanLines, i: number) => lines.coords.subarray(lines.starts[i] * 2, lines.starts[i + 1] * 2);
export const isClosed = (points: Float64Array) => points.length >= 8 && points[0] === points[points.length - 2] && points[1] === points[points.length - 1];
