import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';
import { AppLayout, PageLoading } from './layout.tsx';
import { Providers } from './providers.tsx';
import { screens } from './routes.tsx';

const LoginPage = lazy(() => import('../features/login/login-page.tsx'));
const SetupPage = lazy(() => import('../features/setup/setup-page.tsx'));

const router = createBrowserRouter([
  {
    path: '/login',
    element: (
      <Suspense fallback={<PageLoading />}>
        <LoginPage />
      </Suspense>
    ),
  },
  {
    path: '/setup',
    element: (
      <Suspense fallback={<PageLoading />}>
        <SetupPage />
      </Suspense>
    ),
  },
  {
    path: '/',
    element: <AppLayout />,
    children: [
      { index: true, element: <Navigate to="/course/calendar" replace /> },
      ...screens.map(({ path, Component }) => ({ path, element: <Component /> })),
      { path: '*', element: <Navigate to="/course/calendar" replace /> },
    ],
  },
]);

/** The web app: providers around the router. */
export function App() {
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
