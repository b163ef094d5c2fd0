import { lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, RouterProvider } from 'react-router-dom';
// In the entry, not lazy (and built from plain form elements, so it adds little): the login form
// paints with the first render instead of after a spinner and another round of chunks.
import LoginPage from '../features/login/login-page.tsx';
import { AppLayout, PageLoading } from './layout.tsx';
import { Providers } from './providers.tsx';
import { screens } from './routes.tsx';

const SetupPage = lazy(() => import('../features/setup/setup-page.tsx'));

const router = createBrowserRouter([
  {
    path: '/login',
    element: <LoginPage />,
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
