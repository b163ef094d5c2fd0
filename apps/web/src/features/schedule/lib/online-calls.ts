export {
  cancelTimetableOnline as cancelOnline,
  createTimetableMeeting as createMeeting,
  queryTimetableOnline as queryOnline,
  sendTimetablePicture,
} from '@studio/contract';
