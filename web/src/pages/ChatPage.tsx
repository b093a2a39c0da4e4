import { Navigate, useParams } from 'react-router';
import { ChatView } from '../modules/chat/components/ChatView';
import { useAutoReadAloud } from '../modules/voice/hooks/useAutoReadAloud';

/** /chat and /chat/{chat_id}. */
export function ChatPage() {
  const { chatId } = useParams();
  useAutoReadAloud(chatId);
  return <ChatView key={chatId ?? 'new'} chatId={chatId} />;
}

/** /{type}/{chat_id?}: chat is the one type of conversation view; anything else is not found. */
export function TypedChatPage() {
  const { type, chatId } = useParams();
  useAutoReadAloud(type === 'chat' ? chatId : undefined);
  if (type === 'chat') return <ChatView key={chatId ?? 'new'} chatId={chatId} />;
  return <Navigate to="/404" replace />;
}
