// What other features use of the batch writers: the bulk delete (an undo of a bulk change deletes what it created).
export { deleteSessions } from './bulk-delete.ts';
// The trail's watermark: an undo's preview reads back what it wrote above it.
export { trailWatermark } from './repository.ts';
// The demo seed fills the weekly template from its current week, as 从课表生成 does.
export { addWeekToTemplate } from './template.ts';
// A bulk change's transaction and its preview (lessons: a fixed weekly series).
export { bulkTx } from './preview.ts';
