// What other features use of the import: the undo of a bulk change takes an import back.
export { importChangedSince, undoImport, type ImportUndo } from './undo-import.ts';
/** The remark of an imported card's opening ledger entry: a card moved in, not sold here. */
export { OPENING_REMARK } from './service.ts';
