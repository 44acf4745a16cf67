// One Hosted Payment Field (card number, expiry or security code) inside its iframe on the
// merchant's page (docs/rules.md#sessions). The value never leaves the sandbox's frames except into the
// session: on the merchant page's collectIframesData(), the card frame asks its sibling frames for
// their values over a BroadcastChannel of the sandbox's origin and posts the three to
// /sdk/hosted-fields/<token>/collect. The merchant's page is told field states only.
;(() => {
  const root = document.documentElement
  const kind = root.dataset.field
  const token = root.dataset.token
  const base = root.dataset.base || ''
  const input = document.getElementById('field')
  if (!input || !kind || !token) return
  const channel = 'BroadcastChannel' in window ? new BroadcastChannel(`paysandbox-hpf:${token}`) : null
  const digits = (value) => value.replace(/\D/g, '')

  const luhn = (number) => {
    let sum = 0
    for (let i = 0; i < number.length; i++) {
      let d = Number(number[number.length - 1 - i])
      if (i % 2 === 1) {
        d *= 2
        if (d > 9) d -= 9
      }
      sum += d
    }
    return number.length >= 12 && sum % 10 === 0
  }
  const brandOf = (number) =>
    /^4/.test(number)
      ? 'visa'
      : /^(5[1-5]|2[2-7])/.test(number)
        ? 'mastercard'
        : /^3[47]/.test(number)
          ? 'amex'
          : ''

  /** MM/YY or MM/YYYY -> {month, year} */
  const expiry = (value) => {
    const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value)
    if (!m) return null
    const month = m[1].padStart(2, '0')
    if (Number(month) < 1 || Number(month) > 12) return null
    return { month, year: m[2].length === 2 ? `20${m[2]}` : m[2] }
  }

  const state = () => {
    const value = input.value
    if (kind === 'card') {
      const number = digits(value)
      return {
        empty: number === '',
        complete: number.length >= 12,
        valid: luhn(number),
        brand: brandOf(number),
      }
    }
    if (kind === 'expiry') {
      const parsed = expiry(value)
      return { empty: value.trim() === '', complete: parsed !== null, valid: parsed !== null }
    }
    const code = digits(value)
    return { empty: code === '', complete: code.length >= 3, valid: /^\d{3,4}$/.test(code) }
  }

  const tellParent = (message) =>
    window.parent.postMessage({ source: 'paysandbox-hosted-fields', token, field: kind, ...message }, '*')

  for (const event of ['input', 'focus', 'blur', 'change'])
    input.addEventListener(event, () => {
      if (event !== 'focus') input.removeAttribute('aria-invalid')
      tellParent({ type: 'event', event, state: state() })
    })

  const showError = (message) => {
    input.setAttribute('aria-invalid', 'true')
    const note = document.getElementById('field-error')
    if (note) note.textContent = message || ''
  }

  if (channel) {
    channel.onmessage = (event) => {
      const data = event.data || {}
      if (data.type === 'values-request' && kind !== 'card')
        channel.postMessage({ type: 'values', id: data.id, field: kind, value: input.value })
      else if (data.type === 'errors' && Array.isArray(data.errors)) {
        const mine = data.errors.find((e) => e.field === kind)
        if (mine) showError(mine.message)
      }
    }
  }

  const FIELD_OF = {
    card_number: 'card',
    card_exp_month: 'expiry',
    card_exp_year: 'expiry',
    card_cvv2: 'cvv',
  }

  /** The card frame: gather the siblings' values, send all three into the session. */
  const collect = (id, fields) => {
    const waiting = fields.filter((f) => f === 'expiry' || f === 'cvv')
    const values = { card: input.value }
    const finish = () => {
      const parsed = expiry(values.expiry || '') || { month: '', year: '' }
      const body = {
        card_number: digits(values.card || ''),
        card_exp_month: parsed.month,
        card_exp_year: parsed.year,
      }
      if (digits(values.cvv || '')) body.card_cvv2 = digits(values.cvv || '')
      fetch(`${base}/sdk/hosted-fields/${encodeURIComponent(token)}/collect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
        .then((response) => response.json().then((answer) => ({ ok: response.ok, answer })))
        .then(({ ok, answer }) => {
          if (ok) return tellParent({ type: 'collected', id, ok: true })
          const errors = (answer.errors || [{ error_message: answer.error_message }]).map((item) => {
            const text = String(item.error_message || '')
            const path = text.split(':', 1)[0]
            return { field: FIELD_OF[path] || 'card', message: text }
          })
          for (const e of errors) if (e.field === 'card') showError(e.message)
          if (channel) channel.postMessage({ type: 'errors', errors })
          tellParent({ type: 'collected', id, ok: false, errors })
        })
        .catch(() =>
          tellParent({ type: 'collected', id, ok: false, errors: [{ field: 'card', message: 'network' }] }),
        )
    }
    if (!channel || waiting.length === 0) return finish()
    const listen = (event) => {
      const data = event.data || {}
      if (data.type !== 'values' || data.id !== id) return
      values[data.field] = data.value
      if (waiting.every((f) => f in values)) {
        channel.removeEventListener('message', listen)
        finish()
      }
    }
    channel.addEventListener('message', listen)
    channel.postMessage({ type: 'values-request', id })
  }

  if (kind === 'card')
    window.addEventListener('message', (event) => {
      if (event.source !== window.parent) return
      const data = event.data || {}
      if (
        data.source === 'paysandbox-hosted-fields' &&
        data.type === 'collect' &&
        typeof data.id === 'string'
      )
        collect(data.id, Array.isArray(data.fields) ? data.fields : ['card', 'expiry', 'cvv'])
    })

  tellParent({ type: 'ready' })
})()
