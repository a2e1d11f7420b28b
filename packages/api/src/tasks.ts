import { Type, type Static } from 'typebox';

/** The task queue as the administrators' task view shows it: waiting and running tasks, in total and per type. */
export const TaskOverviewDto = Type.Object({
  queued: Type.Integer(),
  running: Type.Integer(),
  /** One entry per task type with any task, by type name; the names are `TaskQueueStatus`'s `countByType` keys. */
  byType: Type.Array(Type.Object({ type: Type.String(), queued: Type.Integer(), running: Type.Integer() })),
});
export type TaskOverviewDto = Static<typeof TaskOverviewDto>;
