import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { PageFrame } from '../../components/PageFrame';

/**
 * A route's frame: PageFrame with the language switch, and a back arrow when the page has a parent. Back goes
 * back in history, or to the parent when the page was opened directly (react-router gives the first location of
 * a session the key 'default').
 */
export function Screen({ title, parent, children }: { title: string; parent?: string; children: ReactNode }) {
  const { t, i18n } = useTranslation('common');
  const navigate = useNavigate();
  const location = useLocation();
  const nextLanguage = i18n.resolvedLanguage === 'en' ? 'zh' : 'en';
  const onBack = parent
    ? () => {
        if (location.key === 'default') void navigate(parent, { replace: true });
        else void navigate(-1);
      }
    : undefined;
  return (
    <PageFrame
      title={title}
      onBack={onBack}
      backLabel={t('nav.back')}
      right={
        <LanguageSwitch
          label={t('layout.switchLanguage')}
          lang={nextLanguage}
          ariaLabel={t('layout.language.switchTo', { language: t(`layout.language.${nextLanguage}`) })}
          onSwitch={() => void i18n.changeLanguage(nextLanguage)}
        />
      }
    >
      {children}
    </PageFrame>
  );
}
