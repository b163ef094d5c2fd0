// What other features use of the batch writers: the bulk delete (an undo of a bulk change deletes what it created).
export { deleteSessions } from './bulk-delete.ts';
