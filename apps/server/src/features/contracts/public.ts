// What other features may use of 电子合同.
/** An online sale's contract, signed before paying, sealed (PDF, hashes) once the sale is written. */
export { sealUnsealed } from './signing.ts';
/** A member's code checked before an order for a card is created: what the order keeps of the signature. */
export { signatureBeforePaying } from './signing.ts';
/** The invariant checker: a stored contract still is what was signed. */
export { verifyContract } from './signing.ts';
export { signedContracts } from './repository.ts';
/** Before a signing code is texted (features/member-channel): what it is for is the member's to sign. */
export { checkCodeTarget } from './signing.ts';
