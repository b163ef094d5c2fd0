// What other features use of the import: the undo of a bulk change takes an import back.
export { importChangedSince, undoImport, type ImportUndo } from './undo-import.ts';
