/** Why a message or field set is not EIP-4361: the field at fault and a short reason. */
export class SiweFormatError extends Error {
  override name = 'SiweFormatError' as const;
  readonly field: string;

  /**
   * @param field - the EIP-4361 field (or "message" for the layout)
   * @param reason - a short explanation
   * @example
   * throw new SiweFormatError('nonce', 'must be at least 8 letters or digits');
   */
  constructor(field: string, reason: string) {
    super(`Invalid EIP-4361 ${field}: ${reason}`);
    this.field = field;
  }
}
