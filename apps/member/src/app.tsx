import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, DotLoading, TabBar, Toast } from 'antd-mobile';
import { BankcardOutline, CalendarOutline, ContentOutline, UserOutline } from 'antd-mobile-icons';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { setSignedOutHandler, type StoreInfo } from './api.ts';
import { forgetMember, rememberMember } from './invalidations.ts';
import { LessonEntry } from './lesson-entry.tsx';
import { Login } from './login.tsx';
import { backFromWechatBind, NotifyPrefs, useWechatAuthorize, useWechatBinding } from './notify-prefs.tsx';
import { MyHealth } from './health.tsx';
import { useMe, useStoreInfo } from './queries.ts';
import { StoreZoneProvider } from './store-clock.ts';
import { Timetable } from './timetable.tsx';
import { useCheckIn } from './writes.ts';

// What the store's landing (the week, sign-in) does not show comes when first opened: the first
// load of /m/ is the landing's (bench/web-first-load.ts).
const MyBookings = lazy(() => import('./bookings.tsx').then((m) => ({ default: m.MyBookings })));
const CardArea = lazy(() => import('./card-area.tsx').then((m) => ({ default: m.CardArea })));
const ContractPage = lazy(() => import('./contract.tsx').then((m) => ({ default: m.ContractPage })));
const LessonBooking = lazy(() => import('./lessons.tsx').then((m) => ({ default: m.LessonBooking })));
const MyPrivacy = lazy(() => import('./privacy.tsx').then((m) => ({ default: m.MyPrivacy })));
const PrivacyNotice = lazy(() => import('./privacy.tsx').then((m) => ({ default: m.PrivacyNotice })));
const Referral = lazy(() => import('./referral.tsx').then((m) => ({ default: m.Referral })));
const TrialSignup = lazy(() => import('./trial-signup.tsx').then((m) => ({ default: m.TrialSignup })));

/** A part of the page still on its way: the page's loading dots in its place. */
function Later({ children }: { children: ReactNode }) {
  return (
    <Suspense
      fallback={
        <div className="empty">
          <DotLoading color="primary" />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

type Tab = 'timetable' | 'bookings' | 'cards' | 'me';

const params = new URLSearchParams(window.location.search);
/** The store of the page: ?store=ID (the QR code's link), else the last one used on this phone. */
function storeIdOfPage(): number | null {
  const fromUrl = Number(params.get('store'));
  if (Number.isInteger(fromUrl) && fromUrl > 0) {
    localStorage.setItem('storeId', String(fromUrl));
    return fromUrl;
  }
  const kept = Number(localStorage.getItem('storeId'));
  return Number.isInteger(kept) && kept > 0 ? kept : null;
}

/** The check-in token of the desk's QR code, when the page was opened by scanning it. */
const checkinToken = params.get('checkin');
/** The desk's signing QR (电子合同): the sealed token naming the card's contract. */
const signToken = params.get('sign');

function StoreHead({ store, sub }: { store: StoreInfo; sub: string }) {
  return (
    <header className="store-head">
      {store.logo && <img src={store.logo} alt="" />}
      <div>
        <h1 className="name" data-testid="store-name">
          {store.storeName}
        </h1>
        <div className="sub">{sub}</div>
      </div>
    </header>
  );
}

/**
 * The members' phone page: the store's landing (its week without login), sign-in by mobile and
 * one-time code, then the timetable, 我的预约 and 我的会员卡; opened from the desk's check-in QR it
 * checks the member in.
 */
export function App() {
  const storeId = storeIdOfPage();
  const qc = useQueryClient();
  const storeQuery = useStoreInfo(storeId);
  const store = storeQuery.data;
  const failed = storeId ? (storeQuery.error?.message ?? null) : '请扫描门店的二维码打开约课页面';
  const me = useMe(storeId);
  // Back from a provider's pay page (购卡, 充值): the 会员卡 tab, where the payment is waited for.
  // Back from WeChat's authorisation for the reminders: 我的, where the binding is made.
  const [tab, setTab] = useState<Tab>(params.get('paid') === '1' ? 'cards' : backFromWechatBind ? 'me' : 'timetable');
  const [loggingIn, setLoggingIn] = useState(false);
  // Opened by the desk's signing QR: the contract, once signed in (back: the 会员卡 tab).
  const [signing, setSigning] = useState(Boolean(signToken));
  // 约私教: the lesson booking steps, in place of the timetable.
  const [bookingLesson, setBookingLesson] = useState(false);
  const { mutateAsync: checkIn } = useCheckIn();
  // Inside WeChat: once signed in, its silent authorisation once (a state of this session), then the openid bound.
  const authorizing = useWechatAuthorize(storeId, Boolean(me));
  useWechatBinding(Boolean(me));

  useEffect(() => setSignedOutHandler(() => forgetMember(qc, storeId)), [qc, storeId]);
  const signedOut = () => forgetMember(qc, storeId);

  // Opened by the desk's check-in QR: once signed in, check in.
  useEffect(() => {
    if (!me || !checkinToken) return;
    window.history.replaceState(null, '', `${window.location.pathname}?store=${storeId}`);
    checkIn({ token: checkinToken })
      .then((r) =>
        Dialog.alert({
          title: r.message,
          content: `${r.courseName}，${r.fromTime.slice(11, 16)} 开课`,
          confirmText: '好的',
        }),
      )
      .catch((e: Error) => Dialog.alert({ title: '没有签到', content: e.message, confirmText: '知道了' }));
  }, [me, storeId, checkIn]);

  // Every screen is the page's <main> with one <h1>: the store's name in its head, else 约课.
  if (failed)
    return (
      <main className="empty">
        <h1 className="sr-only">约课</h1>
        {failed}
      </main>
    );
  if (!store || me === undefined || authorizing) {
    return (
      <main className="empty">
        <h1 className="sr-only">约课</h1>
        <DotLoading color="primary" />
      </main>
    );
  }
  // 体验课报名 (the store's link or QR, or a member's referral link): no sign-in.
  if (params.get('trial')) {
    return (
      <main className="page">
        <StoreHead store={store} sub="体验课报名" />
        <Later>
          <TrialSignup storeId={store.storeId} referral={params.get('ref')} />
        </Later>
      </main>
    );
  }
  if (!me && loggingIn) {
    return (
      <StoreZoneProvider value={store.timezone}>
        <main className="page">
          <StoreHead store={store} sub="会员登录" />
          <Login
            store={store}
            onBack={() => setLoggingIn(false)}
            onDone={(who) => {
              rememberMember(qc, storeId, who);
              setLoggingIn(false);
              Toast.show({ content: `欢迎，${who.member.name}` });
            }}
          />
        </main>
      </StoreZoneProvider>
    );
  }
  if (!me) {
    return (
      <StoreZoneProvider value={store.timezone}>
        <main className="page">
          <StoreHead
            store={store}
            sub={checkinToken ? '登录后即可签到' : signToken ? '登录后签署会员卡合同' : '本周课程'}
          />
          <Timetable store={store} me={null} onLogin={() => setLoggingIn(true)} />
          <div className="tabbar" style={{ padding: 12 }}>
            <Button block color="primary" size="large" onClick={() => setLoggingIn(true)}>
              {checkinToken ? '登录后签到' : signToken ? '登录后签署合同' : '登录预约'}
            </Button>
          </div>
        </main>
      </StoreZoneProvider>
    );
  }
  if (signing) {
    return (
      <StoreZoneProvider value={store.timezone}>
        <main className="page">
          <StoreHead store={store} sub={`${me.member.name}，请阅读并签署合同`} />
          <Later>
            <ContractPage
              token={signToken ?? undefined}
              onBack={() => {
                window.history.replaceState(null, '', `${window.location.pathname}?store=${storeId}`);
                setSigning(false);
                setTab('cards');
              }}
            />
          </Later>
        </main>
      </StoreZoneProvider>
    );
  }
  return (
    <StoreZoneProvider value={store.timezone}>
      <main className="page">
        <StoreHead store={store} sub={`${me.member.name}，你好`} />
        <Suspense fallback={null}>
          <PrivacyNotice />
        </Suspense>
        {tab === 'timetable' && bookingLesson && (
          <Later>
            <LessonBooking
              onBack={() => setBookingLesson(false)}
              onDone={() => {
                setBookingLesson(false);
                setTab('bookings');
              }}
            />
          </Later>
        )}
        {tab === 'timetable' && !bookingLesson && (
          <>
            <LessonEntry onOpen={() => setBookingLesson(true)} />
            <Timetable store={store} me={me} onLogin={() => {}} />
          </>
        )}
        {tab === 'bookings' && (
          <Later>
            <MyBookings />
          </Later>
        )}
        {tab === 'cards' && (
          <Later>
            <CardArea onSignedOut={signedOut} />
          </Later>
        )}
        {tab === 'me' && (
          <Later>
            <Referral />
            <NotifyPrefs storeId={storeId} />
            <MyHealth />
            <MyPrivacy />
          </Later>
        )}
        <div className="tabbar">
          <TabBar activeKey={tab} onChange={(k) => setTab(k as Tab)}>
            <TabBar.Item key="timetable" title="课表" icon={<CalendarOutline />} />
            <TabBar.Item key="bookings" title="我的预约" icon={<ContentOutline />} />
            <TabBar.Item key="cards" title="会员卡" icon={<BankcardOutline />} />
            <TabBar.Item key="me" title="我的" icon={<UserOutline />} />
          </TabBar>
        </div>
      </main>
    </StoreZoneProvider>
  );
}
