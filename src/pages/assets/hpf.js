// Hosted Payment Fields: the card form posts JSON to /api/v1/processing/<operation>/card with
// the session's Token header (docs/rules.md#beyond-the-interface) and tells the merchant's page around the iframe
// what happened (postMessage); the demo merchant page lists those messages. Loaded after
// /assets/hosted.js, whose helpers it uses; without script the form posts to the sandbox.
;(() => {
  const pages = window.paysandboxPages
  if (!pages) return
  const { data, msg, byId, digits, readExpiry, problemOf, showProblem, showSummary, busy, tellParent } = pages

  const fieldOfPath = {
    card_number: 'card_number',
    card_exp_month: 'card_exp',
    card_exp_year: 'card_exp',
    card_cvv2: 'card_cvv2',
    card_holder: 'card_holder',
  }

  const payWithFields = (form) => {
    const value = (name) => (form.elements[name] ? form.elements[name].value.trim() : '')
    const expiry = readExpiry(value('card_exp')) || { month: '', year: '' }
    const info = {}
    for (const input of form.querySelectorAll('[data-browser-info]')) {
      const key = input.dataset.browserInfo
      if (key === 'javascript') info.javascript_enabled = true
      else if (input.value !== '') info[key] = /^-?\d+$/.test(input.value) ? Number(input.value) : input.value
    }
    info.java_enabled = false
    const body = {
      card_number: digits(value('card_number')),
      card_exp_month: expiry.month,
      card_exp_year: expiry.year,
      browser_info: info,
    }
    if (value('card_cvv2')) body.card_cvv2 = value('card_cvv2')
    if (value('card_holder')) body.card_holder = value('card_holder')
    const done = busy(form)
    fetch(data.endpoint, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Token: data.token },
      body: JSON.stringify(body),
    })
      .then((response) => response.json().then((answer) => ({ ok: response.ok, answer })))
      .then(({ ok, answer }) => {
        if (ok && answer.redirect_url) {
          tellParent({ type: 'redirect', url: answer.redirect_url, payment_id: answer.payment_id })
          window.location.assign(answer.redirect_url)
          return
        }
        done()
        if (ok) {
          tellParent({ type: 'result', payment_id: answer.payment_id, status: answer.status })
          if (answer.status === 'decline') {
            showSummary([
              { message: `${msg.declined || ''} ${answer.reason ? `(${answer.reason})` : ''}`.trim() },
            ])
            return
          }
          form.hidden = true
          const result = byId('hpf-result')
          if (result) result.hidden = false
          return
        }
        const items = []
        for (const item of answer.errors || [{ error_message: answer.error_message }]) {
          const text = String(item.error_message || msg.generic)
          const path = text.split(':', 1)[0]
          const input = fieldOfPath[path] ? byId(fieldOfPath[path]) : null
          if (input) {
            const message = /expired/i.test(text) ? msg.expired : problemOf(input) || msg.invalid
            showProblem(input, message)
            items.push({ input, message })
          } else items.push({ message: text })
        }
        showSummary(items)
      })
      .catch(() => {
        // No answer (network): the form posts to the sandbox as it would without script.
        done()
        form.submit()
      })
  }

  // --- the demo merchant page listening to its fields ---------------------------------------
  if (data.page === 'hpf-demo') {
    const log = byId('hpf-log')
    window.addEventListener('message', (event) => {
      if (!log || event.origin !== data.origin || !event.data || event.data.source !== 'paysandbox-hpf')
        return
      const li = document.createElement('li')
      li.textContent = JSON.stringify(event.data)
      log.appendChild(li)
    })
  }
  pages.payWithFields = payWithFields
})()
