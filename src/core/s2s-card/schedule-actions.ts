import { releaseOf } from '../validation/releases.js'
import { S2S_CARD_FORMULAS } from '../signatures/formulas.js'
import type {
  S2SCardCreateScheduleRequest,
  S2SCardDeleteScheduleRequest,
  S2SCardDescheduleRequest,
  S2SCardPauseRequest,
  S2SCardRunRequest,
  S2SCardScheduleInfoRequest,
  S2SCardUpdateScheduleRequest,
} from '../../generated/types.js'
import type { EngineContext, SandboxMerchant } from '../engine/context.js'
import { fail } from '../engine/errors.js'
import type { Chain, Schedule } from '../engine/model.js'
import { declareAction, type Pipeline } from '../engine/pipeline.js'
import { validated } from '../engine/request-validation.js'
import { liveSchedule } from '../schedules/chains.js'
import {
  deleteSchedule,
  descheduleChain,
  pauseSchedule,
  runSchedule,
  updateSchedule,
} from '../schedules/lifecycle.js'
import { mergeParams, scheduleInfo, sentParams } from '../schedules/params.js'
import type { S2sCardAction } from './action.js'

/**
 * The schedule actions of 2.3. Each: validate, authenticate (client_key), check the hash
 * (docs/rules.md#s2s-card-formulas: CREATE_SCHEDULE md5(upper(rev(password))), the others
 * md5(upper(rev(schedule_id + password)))), then find the merchant's schedule; a deleted schedule,
 * or another merchant's, answers "Schedule not found" like an unknown one. The effects on chains
 * and the states are in src/core/schedules/lifecycle.ts.
 */

type ScheduleAction = 'UPDATE_SCHEDULE' | 'DELETE_SCHEDULE' | 'PAUSE' | 'RUN' | 'SCHEDULE_INFO' | 'DESCHEDULE'

const SCHEMAS: Record<ScheduleAction, string> = {
  UPDATE_SCHEDULE: 's2s-card/update-schedule-request',
  DELETE_SCHEDULE: 's2s-card/delete-schedule-request',
  PAUSE: 's2s-card/pause-request',
  RUN: 's2s-card/run-request',
  SCHEDULE_INFO: 's2s-card/schedule-info-request',
  DESCHEDULE: 's2s-card/deschedule-request',
}

/** Errors: DELETE_SCHEDULE and UPDATE_SCHEDULE have the interface's row; the other actions its twin. */
const notFoundRow = (action: ScheduleAction): string =>
  action === 'DELETE_SCHEDULE' || action === 'UPDATE_SCHEDULE'
    ? 'S2S_CARD_SCHEDULE_NOT_FOUND'
    : 'S2S_CARD_SCHEDULE_NOT_FOUND_OTHER_ACTIONS'

/**
 * Errors: "`delays` sent on CREATE_SCHEDULE or UPDATE_SCHEDULE ... Parameter is deprecated." It is
 * answered as the interface writes it, alone, before any other check of the request. An empty
 * form value is no value (as everywhere on S2S forms).
 */
/**
 * Errors: `delays` is "Parameter is deprecated." since 6.7.0; a merchant pinned to 6.6.5 may still
 * send it (docs/rules.md#warnings-and-releases): it is accepted (the sandbox calendar does not use it).
 */
function admitDelays(body: Record<string, unknown>, ctx: EngineContext): Record<string, unknown> {
  if (releaseOf(ctx.merchant(body.client_key)) === '6.6.5') {
    const { delays: _accepted, ...rest } = body
    return rest
  }
  if (Object.hasOwn(body, 'delays') && body.delays !== '') throw fail('S2S_CARD_SCHEDULE_DELAYS_DEPRECATED')
  return body
}

const answer = (action: string, scheduleId: string) => ({
  action,
  result: 'SUCCESS',
  schedule_id: scheduleId,
})

type ScheduleFields = { client_key: string; schedule_id: string; hash: string }

/**
 * The declared pipeline of the actions on an existing schedule: its schema, `client_key`, Formula
 * 4 over schedule_id + password, then the merchant's live schedule or the action's not-found row.
 * `delays` is refused first where the action takes schedule parameters (6.7.0: deprecated).
 */
function schedulePipeline<T extends ScheduleFields>(
  action: ScheduleAction,
  admitDelaysFirst = false,
): Pipeline<T, Schedule> {
  return {
    schema: SCHEMAS[action],
    pathStyle: 'bracket',
    ...(admitDelaysFirst
      ? {
          validate: (body: Record<string, unknown>, ctx: EngineContext) => {
            return validated<T>(SCHEMAS[action], admitDelays(body, ctx), 'bracket')
          },
        }
      : {}),
    credential: 'client_key',
    formula: S2S_CARD_FORMULAS.schedule,
    load: (ctx, request, merchant) => {
      const schedule = liveSchedule(ctx, merchant.key, request.schedule_id)
      if (!schedule) throw fail(notFoundRow(action))
      return schedule
    },
  }
}

const createSchedule = declareAction<S2SCardCreateScheduleRequest>(
  {
    schema: 's2s-card/create-schedule-request',
    validate: (body, ctx) => {
      return validated<S2SCardCreateScheduleRequest>(
        's2s-card/create-schedule-request',
        admitDelays(body, ctx),
        'bracket',
      )
    },
    pathStyle: 'bracket',
    credential: 'client_key',
    formula: S2S_CARD_FORMULAS.createSchedule,
  },
  ({ ctx, input: request, merchant }) => {
    const now = ctx.clock.now()
    const schedule: Schedule = {
      id: ctx.ids.uuid(),
      merchant_key: merchant.key,
      state: 'running',
      params: withDayOfMonth(mergeParams({}, sentParams(request)), request),
      created_at: now,
      updated_at: now,
    }
    ctx.store.put('schedules', schedule)
    return answer('CREATE_SCHEDULE', schedule.id)
  },
)

const updateScheduleAction = declareAction(
  schedulePipeline<S2SCardUpdateScheduleRequest>('UPDATE_SCHEDULE', true),
  ({ ctx, input: request, loaded: schedule }) => {
    updateSchedule(ctx, schedule, withDayOfMonth(sentParams(request), request))
    return answer('UPDATE_SCHEDULE', schedule.id)
  },
)

/** An action that only changes the schedule's state. */
const stateAction = (
  action: 'DELETE_SCHEDULE' | 'PAUSE' | 'RUN',
  apply: (ctx: EngineContext, schedule: Schedule) => void,
) =>
  declareAction(
    schedulePipeline<S2SCardDeleteScheduleRequest | S2SCardPauseRequest | S2SCardRunRequest>(action),
    ({ ctx, input: request, loaded: schedule }) => {
      apply(ctx, schedule)
      // PAUSE_SCHEDULE / RUN_SCHEDULE (the platform's names, docs/rules.md#beyond-the-interface) are answered as sent.
      return answer(request.action, schedule.id)
    },
  )

/** SCHEDULE_INFO: the parameters, `state`, `delays: null` and `paused` Y/N (docs/rules.md#beyond-the-interface). */
const scheduleInfoAction = declareAction(
  schedulePipeline<S2SCardScheduleInfoRequest>('SCHEDULE_INFO'),
  ({ loaded: schedule }) => {
    const dayOfMonth = schedule.params.day_of_month
    return {
      ...answer('SCHEDULE_INFO', schedule.id),
      ...scheduleInfo(schedule),
      ...(dayOfMonth ? { day_of_month: dayOfMonth } : {}),
      paused: schedule.state === 'paused' ? 'Y' : 'N',
    }
  },
)

/** docs/rules.md#schedules: `day_of_month` of a monthly schedule, kept with its parameters as sent. */
function withDayOfMonth(params: Record<string, string>, request: { day_of_month?: string }) {
  return request.day_of_month ? { ...params, day_of_month: request.day_of_month } : params
}

/**
 * DESCHEDULE: the chain named by the recurring pair (docs/rules.md#beyond-the-interface names, as on RECURRING_SALE)
 * leaves the schedule. A pair that names no chain still attached to this schedule (unknown, another
 * merchant's, another schedule's, already descheduled, or a wrong token) is "Incorrect transaction".
 */
const deschedule = declareAction(
  schedulePipeline<S2SCardDescheduleRequest>('DESCHEDULE'),
  ({ ctx, input: request, merchant, loaded: schedule }) => {
    const firstId = request.recurring_first_trans_id ?? request.recurring_init_trans_id
    // docs/rules.md#schedules: "`DESCHEDULE` takes `recurring_token`"; the initial payment's id is optional.
    const chain =
      firstId !== undefined
        ? ctx.store.get('chains', firstId)
        : ctx.store
            .findBy('chains', 'schedule_id', schedule.id)
            .find((c) => ctx.store.get('payments', c.id)?.recurring?.token === request.recurring_token)
    if (!chain || !attachedTo(ctx, chain, merchant, schedule, request.recurring_token)) {
      throw fail('S2S_CARD_DESCHEDULE_INCORRECT_TRANSACTION')
    }
    descheduleChain(ctx, chain)
    return answer('DESCHEDULE', schedule.id)
  },
)

function attachedTo(
  ctx: EngineContext,
  chain: Chain,
  merchant: SandboxMerchant,
  schedule: Schedule,
  token: string,
): boolean {
  const initial = ctx.store.get('payments', chain.id)
  return (
    chain.merchant_key === merchant.key &&
    chain.schedule_id === schedule.id &&
    (chain.state === 'active' || chain.state === 'completed') &&
    initial?.recurring?.token === token
  )
}

/** CREATE_SCHEDULE, UPDATE_SCHEDULE, DELETE_SCHEDULE, PAUSE(_SCHEDULE), RUN(_SCHEDULE), SCHEDULE_INFO, DESCHEDULE. */
export const scheduleActions: Record<string, S2sCardAction> = {
  CREATE_SCHEDULE: createSchedule,
  UPDATE_SCHEDULE: updateScheduleAction,
  DELETE_SCHEDULE: stateAction('DELETE_SCHEDULE', deleteSchedule),
  PAUSE: stateAction('PAUSE', pauseSchedule),
  RUN: stateAction('RUN', runSchedule),
  PAUSE_SCHEDULE: stateAction('PAUSE', pauseSchedule),
  RUN_SCHEDULE: stateAction('RUN', runSchedule),
  SCHEDULE_INFO: scheduleInfoAction,
  DESCHEDULE: deschedule,
}
