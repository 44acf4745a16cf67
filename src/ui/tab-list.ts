/** The console's views, in tab order; the digit selects one. */
export const TABS = [
  { id: 'payments', label: 'Payments' },
  { id: 'callbacks', label: 'Callbacks' },
  { id: 'schedules', label: 'Schedules' },
  { id: 'clock', label: 'Clock' },
  { id: 'merchants', label: 'Merchants' },
  { id: 'scenarios', label: 'Scenarios' },
] as const

export type TabId = (typeof TABS)[number]['id']
