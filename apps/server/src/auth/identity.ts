/** Who a staff session belongs to: the staff member and the stores they hold a post in. */
export interface StaffIdentity {
  id: number;
  name: string;
  mobile: string | null;
  posts: { storeId: number; store: { id: number; name: string } }[];
}
