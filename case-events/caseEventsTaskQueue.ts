/**
 * The task queue of the journey's LOS events and read-model writes: the workflow's own queue with
 * `-case-events` after it, served by a worker of its own (worker/createWorker.ts) with its own
 * activity slots, so an LOS or a case file that is slow to answer never takes the slots the
 * provider calls need. Plain data: workflow code imports it.
 */
export const caseEventsTaskQueue = (taskQueue: string): string => `${taskQueue}-case-events`;
