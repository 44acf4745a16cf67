// The APM simulator pages' script (served as /assets/apm.js): while the payment waits on this
// page, it asks the sandbox every 2 s where the payment stands, and reloads the page once the
// payment has moved (approved through the control API or a scenario, for example), so the server
// sends the payer on. Without script the page still works: the payer reloads or picks an outcome.
;(() => {
  const node = document.getElementById('page-data')
  let data = {}
  try {
    data = node ? JSON.parse(node.textContent || '{}') : {}
  } catch {
    data = {}
  }
  if (data.page !== 'apm' || !data.state_url || data.status !== 'redirect') return
  const tick = async () => {
    try {
      const response = await fetch(data.state_url, {
        headers: { accept: 'application/json' },
        cache: 'no-store',
      })
      if (response.ok) {
        const state = await response.json()
        if (state && state.waiting === false) {
          window.location.replace(window.location.href)
          return
        }
      }
    } catch {
      // A failed poll (sandbox restarting) is retried on the next tick.
    }
    window.setTimeout(tick, 2000)
  }
  window.setTimeout(tick, 2000)
})()
