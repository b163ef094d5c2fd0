import { TeacherFilter, VenueFilter } from '../../../shared/pickers/filter-select.tsx';
import { useRole } from '../../../shared/profile.ts';

interface Props {
  venueId: number | null;
  teacherId: number | null;
  onVenue: (id: number | null) => void;
  onTeacher: (id: number | null) => void;
}

/**
 * Venue (a venue includes its rooms) and teacher filters of the calendar. A teacher sees only their
 * own sessions (the server answers no others): no teacher filter for them.
 */
export function Filters({ venueId, teacherId, onVenue, onTeacher }: Props) {
  const teacher = useRole() === 'teacher';
  return (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
      <VenueFilter style={{ width: 200 }} value={venueId} onChange={onVenue} />
      {!teacher && <TeacherFilter style={{ width: 160 }} value={teacherId} onChange={onTeacher} />}
    </div>
  );
}
