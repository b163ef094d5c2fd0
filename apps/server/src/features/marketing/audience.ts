import type { LeadStage } from '@studio/contract';
import type { Executor } from '../../db/index.ts';
import { leadsWithMarketingConsent } from '../leads/public.ts';
import { membersWithMarketingConsent } from '../privacy/public.ts';

/** Who a marketing text is for: members, leads (at some stages; none listed: any). */
export interface Audience {
  members: boolean;
  leads: boolean;
  leadStages: readonly LeadStage[];
}

interface Person {
  /** The latest choice of any member or lead of the mobile: granted, and when (null: never asked). */
  granted: boolean;
  at: string | null;
  inAudience: boolean;
  asMember: boolean;
}

/**
 * One person a mobile: a member and a lead of the same mobile are one. Their choice is the latest
 * consent given or withdrawn as either (a withdrawal wins a tie), so a member switching it off on
 * their page is not texted as a lead, and a reply T stops both.
 */
export async function peopleOf(ex: Executor, storeId: number, a: Audience, mobile?: string) {
  const [members, leads] = await Promise.all([
    membersWithMarketingConsent(ex, storeId, mobile),
    leadsWithMarketingConsent(ex, storeId, mobile),
  ]);
  const people = new Map<string, Person>();
  const add = (r: { mobile: string; granted: unknown; at: string | null }, inAudience: boolean, asMember: boolean) => {
    const p = people.get(r.mobile) ?? { granted: false, at: null, inAudience: false, asMember: false };
    const granted = r.granted !== null && Number(r.granted) === 1;
    if (r.at !== null && (p.at === null || r.at > p.at || (r.at === p.at && !granted))) {
      p.at = r.at;
      p.granted = granted;
    }
    p.inAudience ||= inAudience;
    p.asMember ||= asMember && inAudience;
    people.set(r.mobile, p);
  };
  for (const m of members) add(m, a.members, true);
  for (const l of leads)
    add(l, a.leads && (!a.leadStages.length || a.leadStages.includes(l.stage as LeadStage)), false);
  return people;
}

/** The mobiles a text goes to (chosen and agreeing, once each) and the counts the preview shows. */
export async function audienceOf(ex: Executor, storeId: number, a: Audience) {
  const people = await peopleOf(ex, storeId, a);
  const recipients: string[] = [];
  let members = 0;
  let excluded = 0;
  for (const [mobile, p] of people) {
    if (!p.inAudience) continue;
    if (!p.granted) {
      excluded += 1;
      continue;
    }
    recipients.push(mobile);
    if (p.asMember) members += 1;
  }
  return {
    recipients,
    counts: { recipients: recipients.length, members, leads: recipients.length - members, excluded },
  };
}

/** Whether the person of a mobile agrees now (checked again when their text is sent). */
export async function agreesNow(ex: Executor, storeId: number, mobile: string) {
  const p = (await peopleOf(ex, storeId, { members: true, leads: true, leadStages: [] }, mobile)).get(mobile);
  return p?.granted === true;
}

/** The ids of the members and leads holding a mobile. */
export async function holdersOf(ex: Executor, storeId: number, mobile: string) {
  const [members, leads] = await Promise.all([
    membersWithMarketingConsent(ex, storeId, mobile),
    leadsWithMarketingConsent(ex, storeId, mobile),
  ]);
  return { memberIds: members.map((m) => m.id), leadIds: leads.map((l) => l.id) };
}
