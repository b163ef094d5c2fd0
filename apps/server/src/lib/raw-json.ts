/**
 * An answer already serialised: a handler whose answer is cached as JSON text returns it in this
 * wrapper, and the route sends `{"code":0,"data":<json>,"msg":""}` without serialising it again.
 * `value` is the same answer as an object, used only to check it against the contract in tests.
 */
export class RawJson {
  constructor(
    readonly json: string,
    readonly value: unknown,
  ) {}
}
