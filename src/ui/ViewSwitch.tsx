import { CallbacksView } from './CallbacksView.js'
import type { ClockView as Clock } from './client-types.js'
import { ClockView } from './ClockView.js'
import type { PaymentFilter } from './filters.js'
import { MerchantsView } from './MerchantsView.js'
import { PaymentDetailView } from './PaymentDetailView.js'
import { PaymentsView } from './PaymentsView.js'
import type { ScenarioSource } from './scenario-source.js'
import { ScenariosView } from './ScenariosView.js'
import { SchedulesView } from './SchedulesView.js'
import type { TabId } from './tab-list.js'

interface Props {
  tab: TabId
  active: boolean
  detail?: string
  closeDetail: () => void
  payments: {
    filter: PaymentFilter
    setFilter: (f: PaymentFilter) => void
    selected?: string
    select: (id: string | undefined) => void
  }
  callbacks: { paymentId?: string; clear: () => void; onOpenChange: (open: boolean) => void }
  clock?: Clock & { shown: number }
  scenarios: ScenarioSource
}

/** The open view. Every case is listed, so a new tab cannot be forgotten here. */
export function ViewSwitch({
  tab,
  active,
  detail,
  closeDetail,
  payments,
  callbacks,
  clock,
  scenarios,
}: Props) {
  switch (tab) {
    case 'payments':
      return detail ? (
        <PaymentDetailView id={detail} active={active} onBack={closeDetail} />
      ) : (
        <PaymentsView active={active} {...payments} />
      )
    case 'callbacks':
      return (
        <CallbacksView
          active={active}
          paymentId={callbacks.paymentId}
          clearPayment={callbacks.clear}
          onOpenChange={callbacks.onOpenChange}
        />
      )
    case 'schedules':
      return <SchedulesView active={active} />
    case 'clock':
      return <ClockView active={active} clock={clock} />
    case 'merchants':
      return <MerchantsView active={active} />
    case 'scenarios':
      return <ScenariosView active={active} source={scenarios} />
  }
}
