//! The club actions on each store backend (SQLite, and PostgreSQL when
//! `PLYYARD_TEST_PG` names a server).

use plyyard_store::testing::stores;

use crate::{ClubError, Clubs, Joined};

#[tokio::test]
async fn open_and_closed_clubs_from_creation_to_chat() {
    for (_dir, store) in stores().await {
        for (id, name) in [("pa", "Alice"), ("pb", "Bob"), ("pc", "Carol")] {
            store.create_account(id, name, "h", 1).await.unwrap();
        }
        let clubs = Clubs::new(store);
        let open = clubs
            .create("pa", " Les Fous ", "", true, 10)
            .await
            .unwrap();
        assert_eq!(
            (open.id.as_str(), open.name.as_str()),
            ("les-fous", "Les Fous")
        );
        let twin = clubs
            .create("pb", "Les fous!", "", false, 11)
            .await
            .unwrap();
        assert_eq!(twin.id, "les-fous-2");
        let new = clubs.create("pa", "New", "", true, 12).await.unwrap();
        assert_eq!(new.id, "new-2");
        assert!(matches!(
            clubs.create("pa", "x", "", true, 12).await,
            Err(ClubError::Invalid(_))
        ));

        // Open: joined at once, once.
        assert_eq!(
            clubs.join("les-fous", "pb", None, 20).await.unwrap(),
            Joined::Member
        );
        assert!(matches!(
            clubs.join("les-fous", "pb", None, 21).await,
            Err(ClubError::AlreadyMember)
        ));
        // Closed: a message is needed, then a leader decides.
        assert!(matches!(
            clubs.join("les-fous-2", "pc", None, 22).await,
            Err(ClubError::MessageNeeded)
        ));
        assert_eq!(
            clubs
                .join("les-fous-2", "pc", Some("I play on Tuesdays"), 23)
                .await
                .unwrap(),
            Joined::Requested
        );
        assert!(
            clubs
                .view("les-fous-2", Some("pc"))
                .await
                .unwrap()
                .requested
        );
        assert!(matches!(
            clubs.requests("les-fous-2", "pc", false, 10).await,
            Err(ClubError::NotLeader)
        ));
        assert!(matches!(
            clubs
                .answer_request("les-fous-2", "pb", "pa", "Alice", true, 24)
                .await,
            Err(ClubError::NoRequest(_))
        ));
        clubs
            .answer_request("les-fous-2", "pb", "pc", "Carol", true, 25)
            .await
            .unwrap();
        let v = clubs.view("les-fous-2", Some("pc")).await.unwrap();
        assert!(v.joined && !v.leads && !v.requested);

        // Kicks, leaders, quitting.
        assert!(matches!(
            clubs.kick("les-fous", "pb", "pa", "Alice").await,
            Err(ClubError::NotLeader)
        ));
        assert!(matches!(
            clubs.kick("les-fous", "pa", "pa", "Alice").await,
            Err(ClubError::KickLeader)
        ));
        assert!(matches!(
            clubs.quit("les-fous", "pa", "Alice").await,
            Err(ClubError::OnlyLeader)
        ));
        clubs
            .set_leader("les-fous", "pa", "pb", "Bob", true)
            .await
            .unwrap();
        clubs.quit("les-fous", "pa", "Alice").await.unwrap();
        assert!(matches!(
            clubs.quit("les-fous", "pa", "Alice").await,
            Err(ClubError::NotMember(_))
        ));
        assert_eq!(clubs.club("les-fous").await.unwrap().nb_members, 1);
        assert!(matches!(
            clubs.club("no-such").await,
            Err(ClubError::NotFound)
        ));
        assert!(matches!(
            clubs.club("Bad Id").await,
            Err(ClubError::NotFound)
        ));

        // Lists.
        let page = clubs.page(Some("fous"), 1).await.unwrap();
        assert_eq!(page.total, 2);
        assert_eq!(page.clubs[0].0.id, "les-fous-2");
        assert_eq!(clubs.of_player("pc", 10).await.unwrap().len(), 1);

        // Chat: members only, lines checked.
        clubs
            .say("les-fous-2", "pc", "Carol", " hello ", 30)
            .await
            .unwrap();
        assert!(matches!(
            clubs.say("les-fous-2", "pa", "Alice", "hi", 31).await,
            Err(ClubError::NotMember(_))
        ));
        assert!(matches!(
            clubs.say("les-fous-2", "pc", "Carol", "", 32).await,
            Err(ClubError::Invalid(_))
        ));
        let lines = clubs.chat("les-fous-2", "pb", "Bob").await.unwrap();
        assert_eq!(
            lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>(),
            ["hello"]
        );
    }
}
