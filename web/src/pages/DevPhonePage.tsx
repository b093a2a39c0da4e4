import { Navigate } from 'react-router';
import { LoadingScreen } from '../ui/Spinner';
import { PublicPage } from '../modules/layout/components/PublicPage';
import { DevPhone } from '../modules/sms/components/DevPhone';
import { useSmsService } from '../modules/sms/hooks/smsQueries';

/** /dev/phone: text the assistant as a chosen number, on a development server only (else the not-found page). */
export function DevPhonePage() {
  const { service, loading } = useSmsService();
  if (loading) return <LoadingScreen label="Loading the development phone" />;
  if (!service?.dev_phone) return <Navigate to="/404" replace />;
  return (
    <PublicPage
      title="Development phone"
      subtitle="Text the assistant as any number, through the same path as a real text. Only on a development server."
      wide
    >
      <DevPhone service={service} />
    </PublicPage>
  );
}
