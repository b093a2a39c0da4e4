import type { MemoryFields, MergeCandidate, MergePlan } from '../extraction/merge-plan';

/**
 * Applies a plan to memories held in memory, as the repository applies it to the table (the
 * quality test and the unit tests' fake store use it; the product never holds memories this way).
 */
export function applyPlan<T extends MergeCandidate>(memories: T[], plan: MergePlan, create: (fields: MemoryFields) => T): T[] {
  const out = memories.map((m) => {
    const update = plan.updates.find((u) => u.id === m.id);
    return update ? { ...m, ...update.fields } : m;
  });
  return [...out, ...plan.inserts.map(create)];
}
