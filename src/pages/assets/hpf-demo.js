// The demo merchant's checkout page (GET /hpf/demo), built only on /sdk/hosted-fields.js the way
// a merchant builds theirs (docs/rules.md#sessions). The payment request is made from this page for the
// demo; a real merchant makes it from its server, with the same body and the Token header.
;(() => {
  const node = document.getElementById('page-data')
  const data = node ? JSON.parse(node.textContent || '{}') : {}
  const form = document.getElementById('hpf-demo-form')
  if (data.page !== 'hpf-demo' || !data.token || !form || typeof window.HostedFields !== 'function') return
  const status = document.getElementById('hpf-demo-status')
  const log = document.getElementById('hpf-demo-log')
  const pay = document.getElementById('hpf-demo-pay')
  const say = (text) => {
    if (status) status.textContent = text
  }

  const hostedFields = new window.HostedFields()
  for (const kind of ['card', 'expiry', 'cvv'])
    for (const event of ['focus', 'blur', 'input'])
      hostedFields.on(kind, event, (state) => {
        if (!log || event === 'input') return
        const li = document.createElement('li')
        li.textContent = `${kind} ${event}: ${JSON.stringify(state)}`
        log.appendChild(li)
      })
  hostedFields.cardOn('input', (state) => {
    if (state.brand) say(`Card brand: ${state.brand}`)
  })

  hostedFields
    .init({
      sessionToken: data.token,
      fields: { card: { id: 'card-number' }, expiry: { id: 'card-expiry' }, cvv: { id: 'card-cvv' } },
      style: { base: { fontSize: '16px' }, invalid: { color: '#b3261e' } },
    })
    .then(() => {
      if (pay) pay.disabled = false
      say('The fields are ready.')
    })

  /** The sandbox on the host this page was opened at (localhost or 127.0.0.1 alike). */
  const sameHost = (address) => {
    const url = new URL(address, window.location.href)
    const loopback = ['localhost', '127.0.0.1', '[::1]']
    if (loopback.includes(url.hostname) && loopback.includes(window.location.hostname))
      url.host = window.location.host
    return url.toString()
  }

  /** result=redirect: a GET to redirect_url, or a form post when redirect_params come with it. */
  const follow = (answer) => {
    const url = sameHost(answer.redirect_url)
    const params = Array.isArray(answer.redirect_params)
      ? answer.redirect_params
      : Object.entries(answer.redirect_params || {}).map(([name, value]) => ({ name, value }))
    if (!params.length) {
      window.location.assign(url)
      return
    }
    const post = document.createElement('form')
    post.method = answer.redirect_method || 'POST'
    post.action = url
    for (const { name, value } of params) {
      const input = document.createElement('input')
      input.type = 'hidden'
      input.name = name
      input.value = value
      post.appendChild(input)
    }
    document.body.appendChild(post)
    post.submit()
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault()
    if (pay) pay.disabled = true
    say('Sending the card into the session…')
    const collected = await hostedFields.collectIframesData()
    if (collected.result !== 'success') {
      say(`The fields refused the card: ${collected.errors.map((e) => e.message).join(' ')}`)
      if (pay) pay.disabled = false
      return
    }
    say('Paying…')
    const holder = document.getElementById('holder')
    // Your server's request: POST /api/v1/processing/purchase/card, header Token, no card data.
    const response = await fetch(data.endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Token: data.token },
      body: JSON.stringify({
        with_hosted_fields: true,
        name: holder ? holder.value : '',
        browser_info: {
          user_agent: navigator.userAgent,
          language: navigator.language,
          javascript_enabled: true,
          java_enabled: false,
          screen_width: window.screen.width,
          screen_height: window.screen.height,
          color_depth: window.screen.colorDepth,
          timezone_offset: new Date().getTimezoneOffset(),
        },
      }),
    })
    const answer = await response.json()
    if (!response.ok) {
      const items = answer.errors || [{ error_message: answer.error_message }]
      say(`Refused: ${items.map((i) => i.error_message).join(' ')}`)
      if (pay) pay.disabled = false
      return
    }
    if (answer.result === 'redirect' && answer.redirect_url) {
      say('3-D Secure: taking you to your bank…')
      follow(answer)
    } else if (answer.result === 'success') say(`Paid: payment ${answer.payment_id}.`)
    else if (answer.result === 'decline') {
      say(`Declined: ${answer.decline_message || ''} Try another card.`)
      if (pay) pay.disabled = false
    } else say(`Result ${answer.result}: the outcome will come by callback (payment ${answer.payment_id}).`)
  })
})()
