/**
 * The id of a resource workflow, `resource/<kind>/<id>` (docs/architecture.md, "One delivery, end
 * to end"). Pure and schema-free, apart from correlationKeys.ts, which builds zod schemas:
 * workflows import it (through client/resourceMessages.ts) to signal a resource, and the workflow
 * bundle holds no zod.
 */
import { boundedId } from './boundedId';
import type { ResourceKey } from './correlationKeys';

/** The id part is bounded: ids come from payloads, and the server refuses over-long workflow ids. */
export function resourceWorkflowId(key: ResourceKey): string {
  return `resource/${key.kind}/${boundedId(key.id)}`;
}
