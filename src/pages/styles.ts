/**
 * The pages' only stylesheet, inlined in every document (no external fonts or CDNs). Mobile
 * first: one column, 16 px inputs (no zoom on phones), 48 px touch targets; wider screens only
 * get more air. Colours keep at least 4.5:1 contrast for text.
 */
export const CSS = `
:root{--bg:#f3f4f8;--card:#fff;--text:#1b2130;--muted:#566074;--border:#cfd5df;--accent:#3346d3;
--accent-hover:#2636b0;--accent-soft:#eef0ff;--error:#b42318;--error-bg:#fef3f2;--error-border:#f9c5bf;
--ok:#05603a;--ok-bg:#e8f8ef;--warn-bg:#fff5d9;--warn:#6b4a00;--focus:#8a97ff;color-scheme:light}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif}
a{color:var(--accent)}
a:hover{color:var(--accent-hover)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.banner{display:block;background:var(--warn-bg);color:var(--warn);text-align:center;font-size:.8125rem;font-weight:600;padding:6px 12px;border-bottom:1px solid #f0dc9c;letter-spacing:.01em}
.wrap{max-width:30rem;margin:0 auto;padding:16px 12px 40px}
.card{min-width:0;overflow-wrap:anywhere;background:var(--card);border-radius:16px;box-shadow:0 1px 2px rgba(16,24,40,.06),0 10px 30px rgba(16,24,40,.07);padding:20px 16px}
.card+.card{margin-top:16px}
@media (min-width:520px){.wrap{padding-top:40px}.card{padding:28px 28px 24px}}
.summary{display:flex;flex-direction:column;gap:2px;padding-bottom:16px;margin-bottom:18px;border-bottom:1px solid #e6e9ef}
.summary .merchant{font-size:.875rem;font-weight:600;color:var(--muted);margin:0}
.summary .amount{font-size:2rem;font-weight:750;letter-spacing:-.02em;margin:0;line-height:1.2}
.summary .order{font-size:.875rem;color:var(--muted);margin:0;overflow-wrap:anywhere}
.summary .amount,.summary .merchant{overflow-wrap:anywhere}
h1,h2,h3{line-height:1.25}
.card h1{font-size:1.5rem;margin:0 0 10px;letter-spacing:-.01em}
h2{font-size:1.0625rem;margin:0 0 12px}
.method-choice{margin:0 0 20px}
.method-choice fieldset{margin:0}
.method-choice legend{font-size:1.0625rem}
.methods{display:grid;gap:8px;margin:0 0 10px}
.method{display:grid;grid-template-columns:auto 1fr;align-items:center;column-gap:12px;min-height:52px;padding:10px 14px;border:1px solid var(--border);border-radius:12px;color:var(--text);font-weight:600;background:#fff;cursor:pointer}
.method:hover{border-color:#9aa5bb}
.method:has(input:checked){border:2px solid var(--accent);background:var(--accent-soft);padding:9px 13px}
.method input{grid-row:span 2;width:22px;height:22px;margin:0;accent-color:var(--accent)}
.method-name,.method-kind{min-width:0;overflow-wrap:anywhere}
.method-kind{font-size:.8125rem;font-weight:500;color:var(--muted)}
form{margin:0}
.field{margin-bottom:16px}
.field label,.field .label{display:block;font-weight:600;font-size:.9375rem;margin-bottom:6px}
.field .opt{font-weight:400;color:var(--muted)}
.hint{display:block;font-size:.8125rem;color:var(--muted);margin:6px 0 0}
input[type=text],input[type=tel],input[type=email],input:not([type]),select{width:100%;min-height:48px;padding:11px 14px;font:inherit;font-size:1rem;color:var(--text);background:#fff;border:1px solid var(--border);border-radius:10px;appearance:none;-webkit-appearance:none}
select{background-image:linear-gradient(45deg,transparent 50%,#566074 50%),linear-gradient(135deg,#566074 50%,transparent 50%);background-position:calc(100% - 20px) 52%,calc(100% - 14px) 52%;background-size:6px 6px;background-repeat:no-repeat;padding-inline-end:36px}
input:hover,select:hover{border-color:#9aa5bb}
[dir=rtl] input[dir=ltr]{text-align:right}
input:focus,select:focus{border-color:var(--accent);outline:3px solid var(--focus);outline-offset:0}
[aria-invalid=true]{border-color:var(--error)!important;background:#fffafa}
.field-error{display:flex;gap:6px;align-items:flex-start;color:var(--error);font-size:.875rem;font-weight:600;margin-top:6px}
.field-error::before{content:"!";flex:none;width:18px;height:18px;border-radius:50%;background:var(--error);color:#fff;font-size:.75rem;line-height:18px;text-align:center;margin-top:1px}
.field-error:empty{display:none}
.row{display:grid;grid-template-columns:1fr 1fr;column-gap:12px}
.row.phone{grid-template-columns:1fr}
@media (min-width:440px){.row.phone{grid-template-columns:2fr 3fr}}
.row>.field{display:grid;grid-row:span 4;grid-template-rows:subgrid;align-content:start;row-gap:0}
.row>.field>label{align-self:end}
fieldset{border:0;padding:0;margin:0 0 4px;min-width:0}
legend{font-weight:700;font-size:1rem;padding:0;margin-bottom:12px}
.btn{display:flex;align-items:center;justify-content:center;gap:8px;width:100%;min-height:52px;padding:12px 18px;border:0;border-radius:12px;background:var(--accent);color:#fff;font:inherit;font-size:1.0625rem;font-weight:650;cursor:pointer;text-decoration:none}
.btn:hover{background:var(--accent-hover);color:#fff}
.btn:disabled,.btn[aria-disabled=true]{background:#a9b1da;cursor:not-allowed}
.btn-quiet{background:transparent;color:var(--muted);border:1px solid var(--border);font-weight:600;font-size:.9375rem;min-height:48px}
.btn-quiet:hover{background:#f6f7fa;color:var(--text)}
.btn-danger{background:#fff;color:var(--error);border:1px solid var(--error-border)}
.btn-danger:hover{background:var(--error-bg);color:var(--error)}
.actions{display:grid;gap:10px;margin-top:8px}
.alert{border-radius:12px;padding:12px 14px;margin-bottom:16px;font-size:.9375rem}
.alert:empty{display:none}
.alert-error{background:var(--error-bg);border:1px solid var(--error-border);color:#7a271a}
.alert-error h2{font-size:1rem;margin:0 0 4px;color:var(--error)}
.alert-error ul{margin:0;padding-inline-start:20px}
.alert-error a{color:#7a271a;font-weight:600;display:inline-block;min-height:24px;padding:2px 0}
.alert-error li{margin:2px 0}
.alert-info{background:var(--accent-soft);border:1px solid #cfd5ff;color:#25308a}
.terms{display:flex;gap:10px;align-items:flex-start;margin:4px 0 16px;font-size:.9375rem}
.terms input{flex:none;width:22px;height:22px;margin:1px 0 0;accent-color:var(--accent)}
.terms label{font-weight:500}
.timer{font-size:.8125rem;color:var(--muted);text-align:center;margin:14px 0 0}
.status{text-align:center;padding:8px 0 0}
.status h1{font-size:1.5rem;margin:14px 0 6px}
.status p{color:var(--muted);margin:0 0 18px}
.icon{width:64px;height:64px;border-radius:50%;margin:0 auto;position:relative;background:var(--accent-soft)}
.icon-success{background:var(--ok-bg)}
.icon-success::after{content:"";position:absolute;left:22px;top:14px;width:14px;height:26px;border:solid var(--ok);border-width:0 5px 5px 0;transform:rotate(45deg)}
.icon-error{background:var(--error-bg)}
.icon-error::before,.icon-error::after{content:"";position:absolute;left:29px;top:16px;width:6px;height:32px;border-radius:3px;background:var(--error);transform:rotate(45deg)}
.icon-error::after{transform:rotate(-45deg)}
.icon-neutral::before{content:"";position:absolute;left:18px;top:18px;width:28px;height:28px;border-radius:50%;border:5px solid #6b76c9;box-sizing:border-box}
.icon-neutral::after{content:"";position:absolute;left:30px;top:22px;width:5px;height:12px;background:#6b76c9;border-radius:2px}
dl.facts{display:grid;grid-template-columns:minmax(0,auto) minmax(0,1fr);gap:6px 16px;margin:0 0 20px;font-size:.9375rem}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0;font-weight:600;text-align:end;overflow-wrap:anywhere}
.note{font-size:.8125rem;color:var(--muted);margin:12px 0 0;text-align:center}
details.testcards{margin-top:16px;font-size:.875rem;border:1px dashed #c5cbe0;border-radius:12px;padding:10px 14px;background:#fafbff}
details.testcards summary{cursor:pointer;font-weight:600;color:var(--muted);min-height:28px}
details.testcards ul{list-style:none;padding:0;margin:8px 0 0;display:grid;gap:6px}
details.testcards li{display:flex;align-items:center;gap:10px;justify-content:space-between;flex-wrap:wrap}
details.testcards li>span{min-width:0;flex:1 1 12rem}
details.testcards code{font-size:.8125rem}
.chip{white-space:nowrap;flex:none;border:1px solid var(--border);background:#fff;border-radius:999px;padding:4px 12px;font:inherit;font-size:.8125rem;cursor:pointer;min-height:32px}
.chip:hover{border-color:var(--accent);color:var(--accent)}
footer{margin-top:18px;display:flex;flex-wrap:wrap;gap:10px 16px;align-items:center;justify-content:center;font-size:.8125rem;color:var(--muted)}
@media (min-width:520px){footer{justify-content:space-between}}
footer form{display:flex;flex-wrap:wrap;gap:8px;align-items:center;justify-content:center}
footer label{font-weight:600}
footer select{min-height:40px;padding:6px 34px 6px 10px;font-size:.875rem;width:auto}
footer .btn-quiet{min-height:40px;width:auto;padding:6px 12px;font-size:.875rem}
.sr-only{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
pre:focus-visible{outline:3px solid var(--focus)}
pre{max-width:100%;background:#0f1629;color:#e4e8ff;border-radius:12px;padding:14px;overflow:auto;font-size:.8125rem;line-height:1.5}
.wrap-wide{max-width:46rem}
.demo-frame{display:block;width:100%;max-width:26rem;min-height:520px;margin:0 auto 16px;border:1px solid var(--border);border-radius:14px;background:#fff}
.hpf,.hpf body{background:transparent}
.hpf .wrap{padding:4px}
.hpf .card{box-shadow:none;background:transparent;padding:12px 8px}
#hpf-log{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.8125rem;overflow-wrap:anywhere}
[hidden]{display:none!important}
@media (prefers-reduced-motion:no-preference){.btn,.method,input{transition:background-color .15s,border-color .15s}}
`
