urlpatterns: list = []
SECTIONS: list = []
