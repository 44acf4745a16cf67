// Hosted Payment Fields, the merchant's side (docs/rules.md#sessions), served at {base_url}/sdk/hosted-fields.js:
//
//   const hostedFields = new HostedFields()
//   await hostedFields.init({ sessionToken, fields: { card: { id }, expiry: { id }, cvv: { id } }, style })
//   hostedFields.cardOn('input', (state) => ...)   // also expiryOn, cvvOn; events input, focus, blur
//   const collected = await hostedFields.collectIframesData()   // {result: 'success'} or {result: 'error', errors}
//   // then your server calls POST /api/v1/processing/purchase/card with the Token header and no card data
//
// Each field is an iframe served by the sandbox. The card data stays inside those frames: on
// collectIframesData() the card frame gathers the expiry and security code from its sibling frames
// (same origin, a channel the merchant's page is not on) and sends all three into the session.
// The merchant's page only ever receives field states (empty, complete, valid, brand), never values.
;(() => {
  const current = document.currentScript
  const src = current?.src ? new URL(current.src) : new URL('/sdk/hosted-fields.js', window.location.href)
  const origin = src.origin
  const base = src.pathname.replace(/\/sdk\/hosted-fields\.js$/, '')
  const KINDS = ['card', 'expiry', 'cvv']
  const EVENTS = ['input', 'focus', 'blur', 'change']
  let sequence = 0

  class HostedFields {
    constructor() {
      this.frames = {}
      this.handlers = { card: {}, expiry: {}, cvv: {} }
      this.pending = new Map()
      this.readyWaiters = []
      this.ready = new Set()
      this.onSubmitResult = null
      this.token = ''
      this.listener = (event) => this.receive(event)
      window.addEventListener('message', this.listener)
    }

    /** Puts one iframe per field into the merchant's elements; resolves once every frame is ready. */
    init(options) {
      const token = typeof options?.sessionToken === 'string' ? options.sessionToken : ''
      if (!token) return Promise.reject(new Error('HostedFields.init: sessionToken is required'))
      const fields = options?.fields || {}
      const kinds = KINDS.filter((kind) => fields[kind])
      if (kinds.length === 0) return Promise.reject(new Error('HostedFields.init: fields.card, expiry, cvv'))
      this.token = token
      const style = options.style ? `?style=${encodeURIComponent(JSON.stringify(options.style))}` : ''
      for (const kind of kinds) {
        const host = document.getElementById(String(fields[kind].id || ''))
        if (!host) return Promise.reject(new Error(`HostedFields.init: no element #${fields[kind].id}`))
        const frame = document.createElement('iframe')
        frame.src = `${origin}${base}/sdk/hosted-fields/${encodeURIComponent(token)}/${kind}${style}`
        frame.title =
          fields[kind].title || { card: 'Card number', expiry: 'Expiry date', cvv: 'Security code' }[kind]
        frame.name = `paysandbox-hpf-${kind}`
        frame.setAttribute('data-hosted-field', kind)
        frame.style.border = '0'
        frame.style.width = '100%'
        frame.style.height = fields[kind].height || '48px'
        host.replaceChildren(frame)
        this.frames[kind] = frame
      }
      return new Promise((resolve) => {
        this.readyWaiters.push({ kinds, resolve })
        this.checkReady()
      })
    }

    on(kind, event, handler) {
      if (!this.handlers[kind] || !EVENTS.includes(event) || typeof handler !== 'function') return this
      const list = this.handlers[kind][event] || []
      list.push(handler)
      this.handlers[kind][event] = list
      return this
    }
    cardOn(event, handler) {
      return this.on('card', event, handler)
    }
    expiryOn(event, handler) {
      return this.on('expiry', event, handler)
    }
    cvvOn(event, handler) {
      return this.on('cvv', event, handler)
    }

    /**
     * Sends the three fields' values from the frames into the session. Resolves
     * {result: 'success'} or {result: 'error', errors: [{field, message}]}; onSubmitResult, when
     * set, receives the same object.
     */
    collectIframesData() {
      const card = this.frames.card
      if (!card?.contentWindow) return Promise.reject(new Error('HostedFields: call init() first'))
      const id = `c${++sequence}`
      return new Promise((resolve) => {
        this.pending.set(id, resolve)
        card.contentWindow.postMessage(
          { source: 'paysandbox-hosted-fields', type: 'collect', id, fields: Object.keys(this.frames) },
          origin,
        )
      }).then((outcome) => {
        if (typeof this.onSubmitResult === 'function') this.onSubmitResult(outcome)
        return outcome
      })
    }

    destroy() {
      window.removeEventListener('message', this.listener)
      for (const frame of Object.values(this.frames)) frame.remove()
      this.frames = {}
    }

    receive(event) {
      if (event.origin !== origin) return
      const data = event.data
      if (data?.source !== 'paysandbox-hosted-fields' || data.token !== this.token) return
      const kind = KINDS.find((k) => this.frames[k] && this.frames[k].contentWindow === event.source)
      if (!kind) return
      if (data.type === 'ready') {
        this.ready.add(kind)
        this.checkReady()
      } else if (data.type === 'event' && EVENTS.includes(data.event)) {
        for (const handler of this.handlers[kind][data.event] || []) handler({ field: kind, ...data.state })
      } else if (data.type === 'collected' && kind === 'card') {
        const resolve = this.pending.get(data.id)
        this.pending.delete(data.id)
        if (resolve)
          resolve(
            data.ok
              ? { result: 'success' }
              : { result: 'error', errors: Array.isArray(data.errors) ? data.errors : [] },
          )
      }
    }

    checkReady() {
      this.readyWaiters = this.readyWaiters.filter((waiter) => {
        if (!waiter.kinds.every((k) => this.ready.has(k))) return true
        waiter.resolve(this)
        return false
      })
    }
  }

  window.HostedFields = HostedFields
})()
