import { TeacherFilter, VenueFilter } from '../../../shared/pickers/filter-select.tsx';

interface Props {
  venueId: number | null;
  teacherId: number | null;
  onVenue: (id: number | null) => void;
  onTeacher: (id: number | null) => void;
}

/** Venue (a venue includes its rooms) and teacher filters of the calendar. */
export function Filters({ venueId, teacherId, onVenue, onTeacher }: Props) {
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      <VenueFilter style={{ width: 200 }} value={venueId} onChange={onVenue} />
      <TeacherFilter style={{ width: 160 }} value={teacherId} onChange={onTeacher} />
    </div>
  );
}
