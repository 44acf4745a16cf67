import { ref } from './helpers.js'
import { describe, expect, it } from 'vitest'
import {
  interpolate,
  JsonPathError,
  referencedNames,
  select,
  selectAll,
  UnknownVariableError,
} from '../../src/conformance/interpolate.js'

// Issue 7: "Values captured in one step are usable in later ones."
describe('interpolate', () => {
  it(`replaces ${ref('name')} in nested strings and keys; a whole-string reference keeps its type`, () => {
    const vars = { id: 'p-1', n: 3, obj: { a: 1 } }
    expect(
      interpolate(
        { a: `x-${ref('id')}`, b: [ref('n'), `n=${ref('n')}`], c: ref('obj'), [ref('id')]: true },
        vars,
      ),
    ).toEqual({
      a: 'x-p-1',
      b: [3, 'n=3'],
      c: { a: 1 },
      'p-1': true,
    })
  })

  it('names the variable that has no value yet', () => {
    expect(() => interpolate({ a: ref('missing') }, {})).toThrow(UnknownVariableError)
    expect(() => interpolate(`a ${ref('missing')} b`, {})).toThrow(/\$\{missing\} has no value yet/)
  })

  it('leaves non-strings and text without references alone', () => {
    expect(interpolate({ a: 1, b: null, c: false, d: '$notavar', e: ref('1bad') }, {})).toEqual({
      a: 1,
      b: null,
      c: false,
      d: '$notavar',
      e: ref('1bad'),
    })
  })

  it('lists the names a value refers to', () => {
    expect(referencedNames({ a: ref('x'), b: [`y ${ref('z')}`] })).toEqual(['x', 'z'])
  })
})

describe('JSONPath-lite', () => {
  const data = { a: { b: [{ c: 1 }, { c: 2 }] }, 'odd-key': 'v', list: ['x', 'y'] }

  it('selects by dots, indexes, quoted keys and wildcards', () => {
    expect(select(data, '$.a.b[1].c')).toBe(2)
    expect(select(data, "$['odd-key']")).toBe('v')
    expect(select(data, '$["odd-key"]')).toBe('v')
    expect(selectAll(data, '$.a.b[*].c')).toEqual([1, 2])
    expect(selectAll(data, '$.list.*')).toEqual(['x', 'y'])
    expect(select(data, '$')).toBe(data)
  })

  it('selects nothing for a missing path, and never reaches a prototype', () => {
    expect(selectAll(data, '$.a.x.y')).toEqual([])
    expect(selectAll(data, '$.list[5]')).toEqual([])
    expect(selectAll({}, '$.__proto__')).toEqual([])
    expect(selectAll({}, '$.constructor')).toEqual([])
  })

  it('refuses a malformed path with the position', () => {
    expect(() => select(data, 'a.b')).toThrow(JsonPathError)
    expect(() => select(data, '$.a[')).toThrow(/malformed brackets at 3/)
    expect(() => select(data, '$.')).toThrow(/a name is expected/)
  })
})
