/**
 * One notice in the Content screen: written in zh and, when wanted, en; previewed as members will see it; saved
 * (a draft until published); published, pinned, unpinned or unpublished. The publication machine decides what is
 * offered (machines/ops/noticePublicationMachine.ts); this only shows it.
 */
import { useSelector } from '@xstate/react';
import Button from 'antd-mobile/es/components/button';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditableNotice, NoticeField, NoticeLang } from '../../../../machines/ops/noticePublicationMachine';
import { noticeLimits } from '../../../../machines/ops/noticePublicationMachine';
import {
  selectEditedNotice,
  selectNoticeChange,
  selectNoticeDraft,
  selectNoticeError,
  selectNoticePreview,
  selectNoticeProblems,
  selectNoticeView,
} from '../../../../machines/ops/opsSelectors';
import { FormField } from '../../../components/FormField';
import { StatusPanel } from '../../../components/StatusPanel';
import { formatDateTime } from '../../../components/dateFormat';
import { useNoticePublication } from '../../contentHooks';
import { Refused } from '../../parts/Refused';
import { RichPreview } from '../../parts/RichPreview';
import { NoticeBadges } from './noticeBadges';

interface NoticeEditorProps {
  notice: EditableNotice | null;
  takenIds: readonly string[];
  /** The notice changed on the server: the list is read again. */
  onChanged: () => void;
  onClose: () => void;
}

export function NoticeEditor({ notice, takenIds, onChanged, onClose }: NoticeEditorProps) {
  const { t, i18n } = useTranslation('ops');
  const locale = i18n.resolvedLanguage ?? 'zh';
  const publication = useNoticePublication(notice, takenIds);
  const view = useSelector(publication, selectNoticeView);
  const draft = useSelector(publication, selectNoticeDraft);
  const problems = useSelector(publication, selectNoticeProblems);
  const saved = useSelector(publication, selectEditedNotice);
  const preview = useSelector(publication, selectNoticePreview);
  const change = useSelector(publication, selectNoticeChange);
  const error = useSelector(publication, selectNoticeError);
  const canPreview = useSelector(publication, (snapshot) => snapshot.can({ type: 'user.preview' }));
  const canCancel = useSelector(publication, (snapshot) => snapshot.can({ type: 'user.cancel' }));
  const canPin = useSelector(publication, (snapshot) => snapshot.can({ type: 'user.pin' }));
  const canUnpin = useSelector(publication, (snapshot) => snapshot.can({ type: 'user.unpin' }));
  // Each answer the server gives changes the list: read it again, not on the first render.
  const changed = useRef(onChanged);
  const first = useRef(saved);
  useEffect(() => {
    if (saved !== first.current) changed.current();
  }, [saved]);
  // On a phone the editor opens below the list: bring it into view when it opens there.
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    const element = article.current;
    if (element && element.getBoundingClientRect().top > window.innerHeight) element.scrollIntoView?.({ block: 'start' });
  }, []);

  const send = (lang: NoticeLang, field: NoticeField, value: string) => publication.send({ type: 'draft.change', lang, field, value });
  const texts = (lang: NoticeLang) => (
    <fieldset className="desk-form" lang={lang}>
      <legend className="field-label">{t(`content.notices.lang.${lang}`)}</legend>
      <FormField
        id={`notice-${lang}-title`}
        label={t('content.notices.title')}
        error={problems.includes(`${lang}.title`) && draft[lang].title !== '' ? t('content.notices.titleInvalid') : null}
        maxLength={noticeLimits.title}
        value={draft[lang].title}
        onChange={(event) => send(lang, 'title', event.target.value)}
      />
      <FormField
        id={`notice-${lang}-summary`}
        label={t('content.notices.summary')}
        hint={t('content.notices.summaryHint')}
        error={null}
        maxLength={noticeLimits.summary}
        value={draft[lang].summary}
        onChange={(event) => send(lang, 'summary', event.target.value)}
      />
      <label htmlFor={`notice-${lang}-body`} className="field-label">
        {t('content.notices.body')}
      </label>
      <textarea id={`notice-${lang}-body`} rows={8} maxLength={noticeLimits.body} value={draft[lang].body} onChange={(event) => send(lang, 'body', event.target.value)} />
    </fieldset>
  );
  const previews = (shown: { zh: { title: string; body: string }; en: { title: string; body: string } | null }) => (
    <div className="desk-form">
      <RichPreview lang="zh" label={t('content.notices.previewOf', { lang: t('content.notices.lang.zh') })} title={shown.zh.title} html={shown.zh.body} />
      {shown.en ? <RichPreview lang="en" label={t('content.notices.previewOf', { lang: t('content.notices.lang.en') })} title={shown.en.title} html={shown.en.body} /> : null}
    </div>
  );

  return (
    <article ref={article} className="card desk-form" aria-labelledby="notice-editor-title">
      <div className="desk-row">
        <h3 id="notice-editor-title" className="card-title desk-row-main">
          {saved ? t('content.notices.editTitle', { id: saved.id }) : t('content.notices.newTitle')}
        </h3>
        <Button size="small" fill="none" onClick={onClose}>
          {t('actions.close')}
        </Button>
      </div>
      {saved ? (
        <p className="desk-row">
          <NoticeBadges notice={saved} />
          {saved.publishedAt ? <span className="desk-muted">{t('content.notices.publishedAt', { at: formatDateTime(saved.publishedAt, locale) })}</span> : null}
        </p>
      ) : null}
      <div aria-live="polite" className="desk-form">
        {view === 'editing' ? (
          <form
            className="desk-form"
            onSubmit={(event) => {
              event.preventDefault();
              publication.send({ type: 'user.preview' });
            }}
          >
            {saved ? null : (
              <FormField
                id="notice-id"
                label={t('content.notices.id')}
                hint={t('content.notices.idHint')}
                error={problems.includes('idTaken') ? t('content.notices.idTaken') : problems.includes('id') && draft.id !== '' ? t('content.notices.idInvalid') : null}
                maxLength={64}
                value={draft.id}
                onChange={(event) => publication.send({ type: 'id.change', id: event.target.value })}
              />
            )}
            {texts('zh')}
            <label className="desk-check">
              <input type="checkbox" checked={draft.withEn} onChange={(event) => publication.send({ type: 'en.toggle', withEn: event.target.checked })} />
              {t('content.notices.withEn')}
            </label>
            {draft.withEn ? texts('en') : <p className="desk-muted">{t('content.notices.zhOnly')}</p>}
            {canPreview ? null : <p className="desk-muted">{t('content.notices.incomplete')}</p>}
            <div className="desk-actions">
              <Button type="submit" color="primary" shape="rounded" disabled={!canPreview}>
                {t('content.notices.preview')}
              </Button>
              {canCancel ? (
                <Button fill="outline" shape="rounded" onClick={() => publication.send({ type: 'user.cancel' })}>
                  {t('common:wallet.actions.cancel')}
                </Button>
              ) : null}
            </div>
          </form>
        ) : null}
        {view === 'previewing' ? (
          <>
            <p className="desk-muted">{t('content.notices.previewLead')}</p>
            {previews({ zh: draft.zh, en: draft.withEn ? draft.en : null })}
            <div className="desk-actions">
              <Button color="primary" shape="rounded" onClick={() => publication.send({ type: 'user.save' })}>
                {saved?.published ? t('content.notices.saveLive') : t('content.notices.save')}
              </Button>
              <Button fill="outline" shape="rounded" onClick={() => publication.send({ type: 'user.edit' })}>
                {t('content.notices.edit')}
              </Button>
            </div>
          </>
        ) : null}
        {view === 'saving' ? <StatusPanel message={t('content.notices.saving')} /> : null}
        {view === 'changing' ? <StatusPanel message={t(`content.notices.changing.${change?.published ? (change.pinned ? 'pin' : saved?.published ? 'unpin' : 'publish') : 'unpublish'}`)} /> : null}
        {(view === 'draft' || view === 'published') && saved ? (
          <>
            {preview?.changedBySanitiser ? (
              <p className="desk-badge" data-tone="warning" role="status">
                {t('content.notices.sanitised')}
              </p>
            ) : null}
            {previews(saved)}
            <div className="desk-actions">
              {view === 'draft' ? (
                <Button color="primary" shape="rounded" onClick={() => publication.send({ type: 'user.publish' })}>
                  {t('content.notices.publish')}
                </Button>
              ) : null}
              {canPin ? (
                <Button fill="outline" shape="rounded" onClick={() => publication.send({ type: 'user.pin' })}>
                  {t('content.notices.pin')}
                </Button>
              ) : null}
              {canUnpin ? (
                <Button fill="outline" shape="rounded" onClick={() => publication.send({ type: 'user.unpin' })}>
                  {t('content.notices.unpin')}
                </Button>
              ) : null}
              {view === 'published' ? (
                <Button color="danger" fill="outline" shape="rounded" onClick={() => publication.send({ type: 'user.unpublish' })}>
                  {t('content.notices.unpublish')}
                </Button>
              ) : null}
              <Button fill="outline" shape="rounded" onClick={() => publication.send({ type: 'user.edit' })}>
                {t('content.notices.edit')}
              </Button>
            </div>
          </>
        ) : null}
        {view === 'refused' ? (
          <Refused error={error} onRetry={() => publication.send({ type: 'user.retry' })} onLeave={() => publication.send({ type: 'user.cancel' })} leaveLabel={t('actions.back')} />
        ) : null}
      </div>
    </article>
  );
}
