import type { PayerView } from '../../../core/apm/views.js'
import { Facts, Waiting } from './common.js'

type Kind = Extract<PayerView, { kind: 'app_confirmation' | 'device_confirmation' }>

/**
 * Confirmation in a mobile app and mobile-device confirmation (2.2.2: "moov-money and
 * mtn-mobile-money (Benin numbers), moov-togo and togocom (Togo numbers)"): the prompt, the number
 * in the country's form, and a page that waits for the confirmation (simulator or control API).
 */
export function ConfirmView({ view }: { view: Kind }) {
  const { format, value } = view.phone
  const rows = [
    ...(value ? [{ label: 'Phone', value }] : []),
    ...(format.country ? [{ label: 'Country', value: format.country }] : []),
    ...(format.calling_code ? [{ label: 'Calling code', value: format.calling_code }] : []),
    { label: 'Number format', value: format.example },
    ...('auth_method' in view && view.auth_method ? [{ label: 'Auth method', value: view.auth_method }] : []),
  ]
  return (
    <>
      <p id="apm-message">{view.prompt}</p>
      <Facts id="apm-phone" rows={rows} />
      <Waiting text="Waiting for your confirmation on the phone: this page updates by itself." />
    </>
  )
}
