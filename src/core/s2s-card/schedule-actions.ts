import type { S2sCardAction } from './action.js'

/** CREATE_SCHEDULE, UPDATE_SCHEDULE, DELETE_SCHEDULE, PAUSE, RUN, SCHEDULE_INFO, DESCHEDULE. */
export const scheduleActions: Record<string, S2sCardAction> = {}
