// The hosted pages' only script: plain JavaScript, no build step, served as /assets/hosted.js.
// Every page works without it (forms post to the sandbox); it adds checks as the payer types,
// the method choice switching the form at once, an accessible error summary, the Terms & Conditions lock on the pay button, the expiry
// countdown, the url_target continue button, and the Hosted Payment Fields' JSON post.
;(() => {
  const dataNode = document.getElementById('page-data')
  let data = {}
  try {
    data = dataNode ? JSON.parse(dataNode.textContent || '{}') : {}
  } catch {
    data = {}
  }
  const msg = data.messages || {}
  const framed = (() => {
    try {
      return window.self !== window.top
    } catch {
      return true
    }
  })()
  const byId = (id) => document.getElementById(id)
  const digits = (value) => String(value || '').replace(/\D/g, '')

  // --- checks -------------------------------------------------------------------------------
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
    return sum % 10 === 0
  }
  const readExpiry = (value) => {
    const m = /^(\d{1,2})\s*[/.-]?\s*(\d{2}|\d{4})$/.exec(String(value || '').trim())
    if (!m) return null
    const month = m[1].padStart(2, '0')
    if (!/^(0[1-9]|1[0-2])$/.test(month)) return null
    return { month, year: m[2].length === 2 ? `20${m[2]}` : m[2] }
  }

  /** The problem with one input, or '' (the same rules the server applies). */
  const problemOf = (input) => {
    const value = input.type === 'checkbox' ? (input.checked ? 'on' : '') : input.value.trim()
    if (!value) {
      if (!input.required) return ''
      return input.type === 'checkbox' ? msg.terms || msg.required : msg.required
    }
    switch (input.dataset.check) {
      case 'card': {
        const d = digits(value)
        return /^[0-9 -]+$/.test(value) && d.length >= 12 && d.length <= 19 && luhn(d) ? '' : msg.card
      }
      case 'expiry':
        return readExpiry(value) ? '' : msg.expiry
      case 'cvv':
        return /^\d{3,4}$/.test(value) ? '' : msg.cvv
      case 'phone-code':
        return /^\+?\d+(-\d+)*$/.test(value) && value.replace('+', '').length <= 10 ? '' : msg.phoneCode
      default:
        break
    }
    if (input.pattern) {
      try {
        if (!new RegExp(`^(?:${input.pattern})$`, 'u').test(value)) return msg.invalid
      } catch {
        return ''
      }
    }
    return ''
  }

  const errorNode = (input) => byId(`${input.id}-error`)
  const showProblem = (input, problem) => {
    const node = errorNode(input)
    if (node) node.textContent = problem
    if (problem) input.setAttribute('aria-invalid', 'true')
    else input.removeAttribute('aria-invalid')
  }
  const labelOf = (input) => {
    const label = document.querySelector(`label[for="${input.id}"]`)
    return label ? label.textContent.replace(/\s*\(.*\)\s*$/, '').trim() : input.name
  }

  /** Fills the live error summary (role=alert), so screen readers announce the problems. */
  const showSummary = (items) => {
    const summary = byId('error-summary')
    if (!summary) return
    summary.textContent = ''
    if (!items.length) return
    const title = document.createElement('h2')
    title.textContent = msg.summary || ''
    const list = document.createElement('ul')
    for (const item of items) {
      const li = document.createElement('li')
      if (item.input) {
        const a = document.createElement('a')
        a.href = `#${item.input.id}`
        a.textContent = `${labelOf(item.input)}: ${item.message}`
        a.addEventListener('click', (event) => {
          event.preventDefault()
          item.input.focus()
        })
        li.appendChild(a)
      } else li.textContent = item.message
      list.appendChild(li)
    }
    summary.append(title, list)
    summary.focus()
  }

  const checkedInputs = (form) =>
    Array.from(form.querySelectorAll('input, select')).filter(
      (i) => i.type !== 'hidden' && i.type !== 'submit' && !i.disabled && i.id,
    )

  const validate = (form) => {
    const items = []
    for (const input of checkedInputs(form)) {
      const problem = problemOf(input)
      showProblem(input, problem)
      if (problem) items.push({ input, message: problem })
    }
    return items
  }

  // --- formatting as the payer types ---------------------------------------------------------
  const formatCardNumber = (input) => {
    const caret = input.selectionStart || 0
    const before = digits(input.value.slice(0, caret)).length
    const grouped = digits(input.value)
      .slice(0, 19)
      .replace(/(\d{4})(?=\d)/g, '$1 ')
    input.value = grouped
    let pos = 0
    let seen = 0
    while (pos < grouped.length && seen < before) {
      if (/\d/.test(grouped[pos])) seen++
      pos++
    }
    if (document.activeElement === input) input.setSelectionRange(pos, pos)
  }
  const formatExpiry = (input, event) => {
    if (event.inputType?.startsWith('delete')) return
    const d = digits(input.value).slice(0, 4)
    input.value =
      d.length > 2 || (d.length === 2 && !input.value.includes('/')) ? `${d.slice(0, 2)}/${d.slice(2)}` : d
  }

  const enhanceForm = (form) => {
    form.noValidate = true
    for (const input of checkedInputs(form)) {
      input.addEventListener('blur', () => {
        if (input.value || input.getAttribute('aria-invalid')) showProblem(input, problemOf(input))
      })
      input.addEventListener('input', (event) => {
        if (input.dataset.check === 'card') formatCardNumber(input)
        if (input.dataset.check === 'expiry') formatExpiry(input, event)
        if (input.getAttribute('aria-invalid') && !problemOf(input)) showProblem(input, '')
      })
    }
    fillBrowserInfo(form)
    lockUntilTermsTicked(form)
  }

  const fillBrowserInfo = (form) => {
    const values = {
      javascript: '1',
      color_depth: window.screen.colorDepth,
      screen_height: window.screen.height,
      screen_width: window.screen.width,
      timezone_offset: new Date().getTimezoneOffset(),
      language: navigator.language,
      platform: navigator.platform,
    }
    for (const input of form.querySelectorAll('[data-browser-info]')) {
      const value = values[input.dataset.browserInfo]
      if (value !== undefined && value !== null) input.value = String(value)
    }
  }

  // Events: "the pay button stays inactive until ticked".
  const lockUntilTermsTicked = (form) => {
    const box = form.querySelector('[data-terms]')
    const button = form.querySelector('[data-requires-terms]')
    if (!box || !button) return
    const sync = () => {
      button.disabled = !box.checked
    }
    box.addEventListener('change', sync)
    sync()
  }

  const busy = (form) => {
    const button = form.querySelector('#pay-button')
    if (!button) return () => {}
    const text = button.textContent
    button.disabled = true
    button.setAttribute('aria-busy', 'true')
    button.textContent = msg.processing || text
    return () => {
      button.disabled = false
      button.removeAttribute('aria-busy')
      button.textContent = text
    }
  }

  // --- the page's form ----------------------------------------------------------------------
  const wirePayForm = (form) => {
    enhanceForm(form)
    form.addEventListener('submit', (event) => {
      const items = validate(form)
      showSummary(items)
      if (items.length) {
        event.preventDefault()
        return
      }
      if (data.page === 'hpf' && window.paysandboxPages.payWithFields) {
        event.preventDefault()
        window.paysandboxPages.payWithFields(form)
        return
      }
      if (form.dataset.sent) {
        event.preventDefault()
        return
      }
      form.dataset.sent = '1'
      busy(form)
    })
  }
  const form = byId('pay-form')
  if (form) wirePayForm(form)

  // Step pages (ACS, redirect): one answer only, even on a double click.
  for (const step of document.querySelectorAll('form[data-form="step"]')) {
    step.addEventListener('submit', (event) => {
      if (step.dataset.sent) event.preventDefault()
      step.dataset.sent = '1'
    })
  }

  // --- test cards ---------------------------------------------------------------------------
  const wireTestCards = (root) => {
    for (const chip of root.querySelectorAll('[data-fill-number]')) {
      chip.hidden = false
      chip.addEventListener('click', () => {
        const number = byId('card_number')
        const exp = byId('card_exp')
        const cvv = byId('card_cvv2')
        if (number) {
          number.value = chip.dataset.fillNumber
          formatCardNumber(number)
          showProblem(number, '')
        }
        if (exp) {
          exp.value = chip.dataset.fillExp
          showProblem(exp, '')
        }
        if (cvv) {
          if (!cvv.value) cvv.value = '123'
          showProblem(cvv, '')
          cvv.focus()
        }
      })
    }
  }
  wireTestCards(document)

  // --- the method choice --------------------------------------------------------------------
  // Without script the radio group is a GET form ("Use this method" reloads the page with that
  // method's form). With it, choosing a radio switches the form at once: the form of the method
  // left is locked straight away (it can no longer be sent), the chosen method's form (the
  // server renders it, as on a reload) takes its place, and the address names the method.
  const choice = byId('method-choice')
  if (choice && form && data.page === 'checkout') {
    const useButton = byId('method-submit')
    if (useButton) useButton.hidden = true
    let latest = 0
    const replace = (current, next) => {
      if (current && next) current.replaceWith(document.adoptNode(next))
      else if (current) current.remove()
      return next
    }
    const switchTo = async (method) => {
      const mine = ++latest
      const stale = byId('pay-form')
      if (stale) {
        stale.inert = true
        stale.setAttribute('aria-busy', 'true')
        const button = stale.querySelector('#pay-button')
        if (button) button.disabled = true
      }
      const url = new URL(data.self || window.location.pathname, window.location.href)
      url.searchParams.set('method', method)
      const lang = choice.querySelector('input[name="lang"]')
      if (lang) url.searchParams.set('lang', lang.value)
      try {
        const response = await fetch(url, { cache: 'no-store', redirect: 'manual' })
        const html = response.ok ? await response.text() : ''
        if (mine !== latest) return
        const next = new DOMParser().parseFromString(html, 'text/html')
        const nextForm = next.getElementById('pay-form')
        // Paid, expired or cancelled meanwhile, or the sandbox is gone: the page says where to go.
        if (!nextForm) return choice.submit()
        replace(byId('pay-form'), nextForm)
        wirePayForm(nextForm)
        const summary = byId('error-summary')
        if (summary) summary.textContent = ''
        const cards = document.querySelector('details.testcards')
        const nextCards = next.querySelector('details.testcards')
        if (cards) replace(cards, nextCards)
        else if (nextCards) byId('expiry-timer')?.after(document.adoptNode(nextCards))
        if (nextCards) wireTestCards(nextCards)
        const keep = document.querySelector('.lang-picker input[name="method"]')
        if (keep) keep.value = method
        window.history.replaceState(null, '', url.pathname + url.search)
      } catch {
        if (mine === latest) choice.submit()
      }
    }
    choice.addEventListener('change', (event) => {
      const radio = event.target
      if (radio && radio.name === 'method' && radio.checked) switchTo(radio.value)
    })
  }

  // --- expiry countdown (session_expiry on the sandbox clock) -------------------------------
  // The server renders the time left on the engine's clock (virtual or system); the script counts
  // down from it and asks the page again every few seconds, so a clock advance (or a paused
  // virtual clock) shows at once. Once the session is over, the page is loaded again and the
  // server sends the payer on (expiry URL).
  const timer = byId('expiry-timer')
  if (timer && msg.expiresIn) {
    let left = Number(timer.dataset.seconds || '0')
    // A virtual clock moves only when advanced: the page then shows the server's time as it is.
    const running = timer.dataset.clock !== 'virtual'
    let syncing = false
    const show = () => {
      const s = Math.max(0, left)
      const h = Math.floor(s / 3600)
      const m = Math.floor((s % 3600) / 60)
      const sec = String(s % 60).padStart(2, '0')
      const time = h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
      timer.textContent = msg.expiresIn.replace('{time}', time)
    }
    const sync = async () => {
      if (syncing) return
      syncing = true
      try {
        // The page's own address (after a form post the URL is the post's, which GET cannot replay).
        const self = data.self || window.location.pathname
        const response = await fetch(self, { cache: 'no-store', redirect: 'manual' })
        const html = response.ok ? await response.text() : ''
        const found = /id="expiry-timer"[^>]*data-seconds="(\d+)"/.exec(html)
        // No timer any more (expired, paid, cancelled): the server sends the payer on.
        if (!found) return window.location.assign(self)
        left = Number(found[1])
        show()
      } catch {
        // The sandbox is restarting: the next sync tries again.
      } finally {
        syncing = false
      }
    }
    window.setInterval(() => {
      if (running && left > 0) left -= 1
      show()
      if (left <= 0) sync()
    }, 1000)
    window.setInterval(sync, running ? 15000 : 2000)
  }

  // --- back to the merchant in the effective url_target (2.1) -------------------------------
  const handoff = data.handoff
  const link = byId('continue')
  if (handoff && link) {
    if (handoff.target === '_top' && framed) {
      // "Inside an iframe with `_top`, the payer sees a continue button that opens a new window."
      link.target = '_blank'
      link.rel = 'noopener'
      const note = document.createElement('span')
      note.className = 'sr-only'
      note.textContent = ` (${msg.newWindow || 'new window'})`
      link.appendChild(note)
    } else if ((handoff.target === '_top' || handoff.target === '_parent') && !framed) {
      window.location.assign(handoff.url)
    }
  }

  // --- Hosted Payment Fields ----------------------------------------------------------------
  const tellParent = (message) => {
    if (framed) window.parent.postMessage({ source: 'paysandbox-hpf', ...message }, '*')
  }
  if (data.hpfResult) tellParent(data.hpfResult)

  // The Hosted Payment Fields' own script (/assets/hpf.js) builds on these.
  window.paysandboxPages = {
    data,
    msg,
    byId,
    digits,
    readExpiry,
    problemOf,
    showProblem,
    showSummary,
    busy,
    tellParent,
  }
})()
